-- The SQL migration PlatformInit1732100000000 sends (its `up`), run after the migrations before it on an empty master database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

START TRANSACTION;
CREATE TABLE clients (
  id serial PRIMARY KEY,
  identifier varchar(40) NOT NULL,
  company_name varchar(200) NOT NULL,
  subdomain varchar(63),
  custom_domain varchar(253),
  contact_email varchar(254),
  database_host varchar(253) NOT NULL,
  database_port int NOT NULL,
  database_name varchar(63) NOT NULL,
  database_username varchar(63) NOT NULL,
  database_password text,
  status varchar(20) NOT NULL DEFAULT 'PENDING'
    CHECK (status IN ('PENDING','PROVISIONING','ACTIVE','SUSPENDED','DELETED')),
  max_users int,
  max_sandboxes int,
  provisioned_at timestamptz,
  last_access_at timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX clients_identifier_uq ON clients (identifier);
CREATE UNIQUE INDEX clients_subdomain_uq ON clients (lower(subdomain)) WHERE status <> 'DELETED';
CREATE UNIQUE INDEX clients_custom_domain_uq ON clients (lower(custom_domain)) WHERE status <> 'DELETED';
COMMIT;
