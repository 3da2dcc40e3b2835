-- The SQL migration UserContactAndProfile1733400000000 sends (its `up`), run after the migrations before it on an empty client database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

-- In schema public:
START TRANSACTION;
SELECT current_schema() AS schema;
ALTER TABLE users ADD COLUMN phone_number varchar(50);
ALTER TABLE users ADD COLUMN profile_id int;
COMMIT;

-- In every sandbox_* schema (here sandbox_sql, search_path sandbox_sql, public):
START TRANSACTION;
SELECT current_schema() AS schema;
COMMIT;
