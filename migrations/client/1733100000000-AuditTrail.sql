-- The SQL migration AuditTrail1733100000000 sends (its `up`), run after the migrations before it on an empty client database.
-- Written by `npm run migrations:sql`; the test suite fails when it differs from what the migration sends.
-- The migration runner wraps it in a transaction of its own (START TRANSACTION ... COMMIT below).

-- In schema public:
START TRANSACTION;
SELECT current_schema() AS schema;
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
CREATE TABLE audit_retention_policies (
  entity_type varchar(100) PRIMARY KEY,
  retention_days int NOT NULL CHECK (retention_days BETWEEN 1 AND 36500),
  updated_by_id int,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
    ALTER TABLE audit_logs ADD COLUMN summary_kind smallint GENERATED ALWAYS AS (CASE
WHEN action = 'LOGIN' AND (metadata->>'event' = 'LOGIN_FAILED'
  OR (metadata->>'success' = 'false' AND metadata->>'pending' IS DISTINCT FROM 'true')) THEN 1
WHEN metadata->>'event' IN ('PASSWORD_CHANGE', 'PASSWORD_RESET_COMPLETED') THEN 2
WHEN changes ? 'roleId' OR changes ? 'permissions'
  OR metadata->>'event' IN ('ROLE_ASSIGNED', 'ROLE_CHANGED', 'PERMISSIONS_CHANGED')
  OR (entity_type = 'Role' AND action = 'UPDATE') THEN 3
ELSE 0 END) STORED;
    DROP INDEX audit_logs_timestamp_idx;
    CREATE INDEX audit_logs_timestamp_idx ON audit_logs (timestamp DESC, id DESC)
      INCLUDE (action, entity_type, user_id, ip_address, summary_kind);
    CREATE INDEX audit_logs_entity_idx ON audit_logs (entity_type, entity_id, timestamp DESC, id DESC);
    CREATE INDEX audit_logs_entity_type_idx ON audit_logs (entity_type, timestamp DESC, id DESC);
    CREATE INDEX audit_logs_user_idx ON audit_logs (user_id, timestamp DESC, id DESC);
    CREATE INDEX audit_logs_action_idx ON audit_logs (action, timestamp DESC, id DESC);
    CREATE INDEX audit_logs_ip_idx ON audit_logs (ip_address, timestamp DESC, id DESC);
    CREATE INDEX audit_logs_security_idx ON audit_logs (timestamp DESC, id DESC) WHERE (action IN ('LOGIN', 'LOGOUT') OR metadata ? 'event' OR changes ? 'roleId' OR changes ? 'permissions' OR entity_type IN ('Role', 'ApiToken', 'IdentityProvider'));
    CREATE INDEX audit_logs_errors_idx ON audit_logs (timestamp DESC, id DESC) WHERE (metadata ? 'error');
    CREATE INDEX audit_logs_message_trgm_idx ON audit_logs USING gin (message public.gin_trgm_ops);

    CREATE FUNCTION audit_logs_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF current_setting('audit.retention', true) IS DISTINCT FROM 'on' THEN
        RAISE EXCEPTION 'audit_logs is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER audit_logs_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_logs
      FOR EACH STATEMENT EXECUTE FUNCTION audit_logs_append_only();
COMMIT;

-- In every sandbox_* schema (here sandbox_sql, search_path sandbox_sql, public):
START TRANSACTION;
SELECT current_schema() AS schema;
    ALTER TABLE audit_logs ADD COLUMN summary_kind smallint GENERATED ALWAYS AS (CASE
WHEN action = 'LOGIN' AND (metadata->>'event' = 'LOGIN_FAILED'
  OR (metadata->>'success' = 'false' AND metadata->>'pending' IS DISTINCT FROM 'true')) THEN 1
WHEN metadata->>'event' IN ('PASSWORD_CHANGE', 'PASSWORD_RESET_COMPLETED') THEN 2
WHEN changes ? 'roleId' OR changes ? 'permissions'
  OR metadata->>'event' IN ('ROLE_ASSIGNED', 'ROLE_CHANGED', 'PERMISSIONS_CHANGED')
  OR (entity_type = 'Role' AND action = 'UPDATE') THEN 3
ELSE 0 END) STORED;
    DROP INDEX audit_logs_timestamp_idx;
    CREATE INDEX audit_logs_timestamp_idx ON audit_logs (timestamp DESC, id DESC)
      INCLUDE (action, entity_type, user_id, ip_address, summary_kind);
    CREATE INDEX audit_logs_entity_idx ON audit_logs (entity_type, entity_id, timestamp DESC, id DESC);
    CREATE INDEX audit_logs_entity_type_idx ON audit_logs (entity_type, timestamp DESC, id DESC);
    CREATE INDEX audit_logs_user_idx ON audit_logs (user_id, timestamp DESC, id DESC);
    CREATE INDEX audit_logs_action_idx ON audit_logs (action, timestamp DESC, id DESC);
    CREATE INDEX audit_logs_ip_idx ON audit_logs (ip_address, timestamp DESC, id DESC);
    CREATE INDEX audit_logs_security_idx ON audit_logs (timestamp DESC, id DESC) WHERE (action IN ('LOGIN', 'LOGOUT') OR metadata ? 'event' OR changes ? 'roleId' OR changes ? 'permissions' OR entity_type IN ('Role', 'ApiToken', 'IdentityProvider'));
    CREATE INDEX audit_logs_errors_idx ON audit_logs (timestamp DESC, id DESC) WHERE (metadata ? 'error');
    CREATE INDEX audit_logs_message_trgm_idx ON audit_logs USING gin (message public.gin_trgm_ops);

    CREATE FUNCTION audit_logs_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF current_setting('audit.retention', true) IS DISTINCT FROM 'on' THEN
        RAISE EXCEPTION 'audit_logs is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER audit_logs_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_logs
      FOR EACH STATEMENT EXECUTE FUNCTION audit_logs_append_only();
COMMIT;
