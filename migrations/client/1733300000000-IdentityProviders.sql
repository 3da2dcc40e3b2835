-- The SQL migration IdentityProviders1733300000000 sends (its `up`), run after the migrations before it on an empty client database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

-- In schema public:
START TRANSACTION;
SELECT current_schema() AS schema;
CREATE TABLE IF NOT EXISTS identity_providers (
  id serial PRIMARY KEY,
  name varchar(100) NOT NULL,
  display_name varchar(200) NOT NULL,
  provider_type varchar(10) NOT NULL CHECK (provider_type IN ('OIDC', 'OAUTH2', 'SAML')),
  preset_provider varchar(30),
  client_id varchar(500),
  client_secret text,
  discovery_uri varchar(2000),
  issuer_url varchar(2000),
  authorization_uri varchar(2000),
  token_uri varchar(2000),
  user_info_uri varchar(2000),
  scopes varchar(1000),
  entity_id varchar(1000),
  sso_url varchar(2000),
  slo_url varchar(2000),
  idp_certificate text,
  signing_algorithm varchar(20) NOT NULL DEFAULT 'RSA_SHA256',
  name_id_format varchar(200),
  want_assertions_signed boolean NOT NULL DEFAULT true,
  want_authn_requests_signed boolean NOT NULL DEFAULT false,
  enabled boolean NOT NULL DEFAULT true,
  jit_enabled boolean NOT NULL DEFAULT false,
  jit_default_role_id int REFERENCES roles(id) ON DELETE SET NULL,
  jit_default_profile_id int,
  auto_link_by_email boolean NOT NULL DEFAULT false,
  allowed_domains varchar(2000),
  company_id int REFERENCES companies(id) ON DELETE SET NULL,
  attribute_mapping jsonb NOT NULL DEFAULT '{}',
  last_tested_at timestamptz,
  last_test_status varchar(20),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX IF NOT EXISTS identity_providers_name_uq ON identity_providers (lower(name));
CREATE INDEX IF NOT EXISTS identity_providers_entity_idx ON identity_providers (entity_id) WHERE entity_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS sso_identities (
  id serial PRIMARY KEY,
  provider_id int NOT NULL REFERENCES identity_providers(id) ON DELETE CASCADE,
  user_id int NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  subject varchar(500) NOT NULL,
  email varchar(254),
  session_index varchar(500),
  linked_at timestamptz NOT NULL DEFAULT now(),
  last_login_at timestamptz
);
CREATE UNIQUE INDEX IF NOT EXISTS sso_identities_subject_uq ON sso_identities (provider_id, subject);
CREATE UNIQUE INDEX IF NOT EXISTS sso_identities_user_uq ON sso_identities (provider_id, user_id);
CREATE INDEX IF NOT EXISTS sso_identities_user_idx ON sso_identities (user_id);
COMMIT;

-- In every sandbox_* schema (here sandbox_sql, search_path sandbox_sql, public):
START TRANSACTION;
SELECT current_schema() AS schema;
COMMIT;
