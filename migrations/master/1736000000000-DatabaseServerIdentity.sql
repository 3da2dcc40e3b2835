-- The SQL migration DatabaseServerIdentity1736000000000 sends (its `up`), run after the migrations before it on an empty master database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

START TRANSACTION;
ALTER TABLE database_servers
  ADD COLUMN system_identifier varchar(20),
  ADD COLUMN cluster_port int;
COMMIT;
