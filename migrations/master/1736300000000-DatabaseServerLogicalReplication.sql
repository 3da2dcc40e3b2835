-- The SQL migration DatabaseServerLogicalReplication1736300000000 sends (its `up`), run after the migrations before it on an empty master database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

START TRANSACTION;
SET LOCAL lock_timeout = '5s';
SET LOCAL statement_timeout = '5s';
ALTER TABLE database_servers ADD COLUMN IF NOT EXISTS logical_replication boolean;
COMMIT;
