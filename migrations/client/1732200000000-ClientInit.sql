-- The SQL migration ClientInit1732200000000 sends (its `up`), run after the migrations before it on an empty client database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

-- In schema public:
START TRANSACTION;
SELECT current_schema() AS schema;
CREATE TABLE companies (
  id serial PRIMARY KEY,
  name varchar(200) NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE roles (
  id serial PRIMARY KEY,
  name varchar(100) NOT NULL,
  type varchar(20) NOT NULL CHECK (type IN ('SUPER_ADMIN','ADMIN','MANAGER','OPERATOR','VIEWER')),
  description varchar(500),
  permissions text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX roles_type_uq ON roles (type);
CREATE TABLE users (
  id serial PRIMARY KEY,
  email varchar(254) NOT NULL,
  username varchar(100),
  first_name varchar(100),
  last_name varchar(100),
  password_hash varchar(100),
  role_id int NOT NULL REFERENCES roles(id),
  company_id int REFERENCES companies(id),
  blocked boolean NOT NULL DEFAULT false,
  confirmed boolean NOT NULL DEFAULT true,
  deleted_at timestamptz,
  password_changed_at timestamptz,
  token_version int NOT NULL DEFAULT 0,
  failed_login_count int NOT NULL DEFAULT 0,
  locked_until timestamptz,
  reset_token_hash varchar(64),
  reset_token_expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_uq ON users (lower(email));
CREATE UNIQUE INDEX users_username_uq ON users (lower(username));
CREATE INDEX users_company_idx ON users (company_id);
CREATE UNIQUE INDEX users_reset_token_uq ON users (reset_token_hash) WHERE reset_token_hash IS NOT NULL;
CREATE TABLE refresh_tokens (
  id serial PRIMARY KEY,
  user_id int NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash varchar(64) NOT NULL UNIQUE,
  family_id uuid NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  rotated_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id);
CREATE TABLE sandboxes (
  id serial PRIMARY KEY,
  name varchar(100) NOT NULL,
  slug varchar(50) NOT NULL UNIQUE,
  description varchar(500),
  schema_name varchar(63) NOT NULL UNIQUE,
  created_by_id int REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE user_sandboxes (
  user_id int NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  sandbox_id int NOT NULL REFERENCES sandboxes(id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, sandbox_id)
);
CREATE TABLE audit_logs (
  id bigserial PRIMARY KEY,
  action varchar(10) NOT NULL CHECK (action IN ('CREATE','UPDATE','DELETE','LOGIN','LOGOUT','ACCESS','EXPORT')),
  entity_type varchar(100),
  entity_id bigint,
  user_id int,
  username varchar(254),
  timestamp timestamptz NOT NULL DEFAULT now(),
  ip_address varchar(64),
  user_agent varchar(500),
  message text,
  changes jsonb,
  metadata jsonb
);
CREATE INDEX audit_logs_timestamp_idx ON audit_logs (timestamp DESC, id DESC);
COMMIT;

-- In every sandbox_* schema (here sandbox_sql, search_path sandbox_sql, public):
START TRANSACTION;
SELECT current_schema() AS schema;
CREATE TABLE audit_logs (
  id bigserial PRIMARY KEY,
  action varchar(10) NOT NULL CHECK (action IN ('CREATE','UPDATE','DELETE','LOGIN','LOGOUT','ACCESS','EXPORT')),
  entity_type varchar(100),
  entity_id bigint,
  user_id int,
  username varchar(254),
  timestamp timestamptz NOT NULL DEFAULT now(),
  ip_address varchar(64),
  user_agent varchar(500),
  message text,
  changes jsonb,
  metadata jsonb
);
CREATE INDEX audit_logs_timestamp_idx ON audit_logs (timestamp DESC, id DESC);
COMMIT;
