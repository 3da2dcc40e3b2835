-- The SQL migration ClientMoves1736200000000 sends (its `up`), run after the migrations before it on an empty master database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

START TRANSACTION;
CREATE TABLE client_moves (
  job_id uuid PRIMARY KEY,
  client_id int NOT NULL,
  identifier varchar(100) NOT NULL,
  from_server_id int,
  to_server_id int NOT NULL,
  mode varchar(10) NOT NULL,
  status varchar(10) NOT NULL,
  step varchar(20) NOT NULL,
  error text,
  warning text,
  waiting_for varchar(20),
  lag_bytes bigint,
  target_database varchar(63),
  target_created boolean NOT NULL DEFAULT false,
  source jsonb,
  paused_at timestamptz,
  pause_ms int,
  source_drop_at timestamptz,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX client_moves_one_open ON client_moves (client_id)
  WHERE status IN ('queued', 'running');
CREATE TABLE client_leases (
  client_id int PRIMARY KEY,
  holder varchar(100) NOT NULL,
  purpose varchar(20) NOT NULL,
  expires_at timestamptz NOT NULL
);
COMMIT;
