-- The SQL migration Identity1733000000000 sends (its `up`), run after the migrations before it on an empty client database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

-- In schema public:
START TRANSACTION;
SELECT current_schema() AS schema;
ALTER TABLE users
  ADD COLUMN two_factor_enabled boolean NOT NULL DEFAULT false,
  ADD COLUMN two_factor_secret text,
  ADD COLUMN two_factor_pending_secret text,
  ADD COLUMN two_factor_recovery_hashes text[] NOT NULL DEFAULT '{}',
  ADD COLUMN two_factor_pending_recovery_hashes text[] NOT NULL DEFAULT '{}',
  ADD COLUMN two_factor_last_step bigint,
  ADD COLUMN confirmation_token_hash varchar(64),
  ADD COLUMN confirmation_expires_at timestamptz;
CREATE UNIQUE INDEX users_confirmation_token_uq ON users (confirmation_token_hash)
  WHERE confirmation_token_hash IS NOT NULL;
CREATE TABLE api_tokens (
  id serial PRIMARY KEY,
  name varchar(100) NOT NULL,
  description varchar(500),
  token_hash varchar(64) NOT NULL UNIQUE,
  token_preview varchar(20) NOT NULL,
  created_by_id int NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  company_id int REFERENCES companies(id) ON DELETE SET NULL,
  is_full_access boolean NOT NULL DEFAULT false,
  permissions jsonb NOT NULL DEFAULT '[]',
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_tokens_creator_idx ON api_tokens (created_by_id);
COMMIT;

-- In every sandbox_* schema (here sandbox_sql, search_path sandbox_sql, public):
START TRANSACTION;
SELECT current_schema() AS schema;
COMMIT;
