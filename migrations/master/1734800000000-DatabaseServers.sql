-- The SQL migration DatabaseServers1734800000000 sends (its `up`), run after the migrations before it on an empty master database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

START TRANSACTION;
CREATE TABLE database_servers (
  id serial PRIMARY KEY,
  name varchar(100) NOT NULL,
  host varchar(253) NOT NULL,
  port int NOT NULL,
  admin_username varchar(63),
  admin_password text,
  max_clients int NOT NULL DEFAULT 1000 CHECK (max_clients >= 0),
  max_connections int NOT NULL DEFAULT 100 CHECK (max_connections >= 1),
  state varchar(20) NOT NULL DEFAULT 'active' CHECK (state IN ('active','draining','disabled')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX database_servers_name_uq ON database_servers (lower(name));
CREATE UNIQUE INDEX database_servers_address_uq ON database_servers (lower(host), port);
ALTER TABLE clients ADD COLUMN server_id int REFERENCES database_servers (id);
ALTER TABLE clients ADD COLUMN moving_to_server_id int REFERENCES database_servers (id);
CREATE INDEX clients_server_idx ON clients (server_id);
COMMIT;
