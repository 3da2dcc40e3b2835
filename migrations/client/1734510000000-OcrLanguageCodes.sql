-- The SQL migration OcrLanguageCodes1734510000000 sends (its `up`), run after the migrations before it on an empty client database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

-- In schema public:
START TRANSACTION;
SELECT current_schema() AS schema;
ALTER TABLE companies ALTER COLUMN ocr_language TYPE varchar(10);
COMMIT;

-- In every sandbox_* schema (here sandbox_sql, search_path sandbox_sql, public):
START TRANSACTION;
SELECT current_schema() AS schema;
COMMIT;
