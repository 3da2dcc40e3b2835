-- The SQL migration Backups1735600000000 sends (its `up`), run after the migrations before it on an empty master database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

START TRANSACTION;
CREATE TABLE backups (
  id serial PRIMARY KEY,
  client_id int NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  kind varchar(10) NOT NULL CHECK (kind IN ('MANUAL', 'SCHEDULED')),
  status varchar(10) NOT NULL DEFAULT 'QUEUED'
    CHECK (status IN ('QUEUED', 'RUNNING', 'COMPLETED', 'FAILED')),
  object_key varchar(300) NOT NULL,
  key_id varchar(40) NOT NULL,
  size_bytes bigint,
  sha256 char(64),
  error varchar(1000),
  started_at timestamptz,
  finished_at timestamptz,
  heartbeat_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX backups_client_idx ON backups (client_id, id DESC);
CREATE INDEX backups_running_idx ON backups (heartbeat_at) WHERE status = 'RUNNING';
ALTER TABLE clients ADD COLUMN restoring_since timestamptz;
COMMIT;
