-- The SQL migration DocumentPagesProcessed1734500000000 sends (its `up`), run after the migrations before it on an empty client database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

-- In schema public:
START TRANSACTION;
ALTER TABLE document_contents ADD COLUMN pages_processed int NOT NULL DEFAULT 0;
UPDATE document_contents SET pages_processed = page_count WHERE status = 'completed';
COMMIT;

-- In every sandbox_* schema: the same statements.
