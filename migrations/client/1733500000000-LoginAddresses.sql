-- The SQL migration LoginAddresses1733500000000 sends (its `up`), run after the migrations before it on an empty client database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

-- In schema public:
START TRANSACTION;
SELECT current_schema() AS schema;
CREATE TABLE login_addresses (
  user_id int NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  address varchar(100) NOT NULL,
  failed_count int NOT NULL DEFAULT 0,
  locked_at timestamptz,
  locked_until timestamptz,
  last_success_at timestamptz,
  PRIMARY KEY (user_id, address)
);
COMMIT;

-- In every sandbox_* schema (here sandbox_sql, search_path sandbox_sql, public):
START TRANSACTION;
SELECT current_schema() AS schema;
COMMIT;
