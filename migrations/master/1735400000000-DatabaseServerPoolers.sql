-- The SQL migration DatabaseServerPoolers1735400000000 sends (its `up`), run after the migrations before it on an empty master database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

START TRANSACTION;
ALTER TABLE database_servers
  ADD COLUMN pooler_host varchar(253),
  ADD COLUMN pooler_port int CHECK (pooler_port BETWEEN 1 AND 65535),
  ADD CONSTRAINT database_servers_pooler_ck CHECK ((pooler_host IS NULL) = (pooler_port IS NULL));
COMMIT;
