-- The SQL migration DocumentSearchNewest1734410000000 sends (its `up`), run after the migrations before it on an empty client database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

-- In schema public:
START TRANSACTION;
CREATE INDEX document_contents_searchable_idx ON document_contents (company_id, (-id))
WHERE search_vector IS NOT NULL;
COMMIT;

-- In every sandbox_* schema: the same statements.
