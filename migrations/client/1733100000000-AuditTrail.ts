import { MigrationInterface, QueryRunner } from 'typeorm';
import { isSandboxSchema } from '../schema-scope';

/** Predicate of the security events (`/compliance/audit/security`); the query uses the same text. */
export const SECURITY_PREDICATE = `(action IN ('LOGIN', 'LOGOUT') OR metadata ? 'event' OR changes ? 'roleId' OR changes ? 'permissions' OR entity_type IN ('Role', 'ApiToken', 'IdentityProvider'))`;
/** Predicate of the recorded error answers (`/compliance/audit/errors`). */
export const ERROR_PREDICATE = `(metadata ? 'error')`;

/**
 * Security class of an entry, computed once at insert so the compliance summary is an index-only
 * scan: 1 failed login (LOGIN with event LOGIN_FAILED, or metadata.success false and not a pending
 * two-factor step), 2 password change or reset, 3 role or permission change, 0 anything else.
 */
export const SUMMARY_KIND = `CASE
  WHEN action = 'LOGIN' AND (metadata->>'event' = 'LOGIN_FAILED'
    OR (metadata->>'success' = 'false' AND metadata->>'pending' IS DISTINCT FROM 'true')) THEN 1
  WHEN metadata->>'event' IN ('PASSWORD_CHANGE', 'PASSWORD_RESET_COMPLETED') THEN 2
  WHEN changes ? 'roleId' OR changes ? 'permissions'
    OR metadata->>'event' IN ('ROLE_ASSIGNED', 'ROLE_CHANGED', 'PERMISSIONS_CHANGED')
    OR (entity_type = 'Role' AND action = 'UPDATE') THEN 3
  ELSE 0 END`;

/**
 * Audit trail: query indexes (each ends with timestamp DESC, id DESC so every list is an index walk,
 * newest first), the append-only guard and, in `public` only, the retention policies.
 */
export class AuditTrail1733100000000 implements MigrationInterface {
  name = 'AuditTrail1733100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (!(await isSandboxSchema(queryRunner))) {
      await queryRunner.query(`
        CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
        CREATE TABLE audit_retention_policies (
          entity_type varchar(100) PRIMARY KEY,
          retention_days int NOT NULL CHECK (retention_days BETWEEN 1 AND 36500),
          updated_by_id int,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now()
        );
      `);
    }
    await queryRunner.query(`
      ALTER TABLE audit_logs ADD COLUMN summary_kind smallint GENERATED ALWAYS AS (${SUMMARY_KIND}) STORED;
      DROP INDEX audit_logs_timestamp_idx;
      CREATE INDEX audit_logs_timestamp_idx ON audit_logs (timestamp DESC, id DESC)
        INCLUDE (action, entity_type, user_id, ip_address, summary_kind);
      CREATE INDEX audit_logs_entity_idx ON audit_logs (entity_type, entity_id, timestamp DESC, id DESC);
      CREATE INDEX audit_logs_entity_type_idx ON audit_logs (entity_type, timestamp DESC, id DESC);
      CREATE INDEX audit_logs_user_idx ON audit_logs (user_id, timestamp DESC, id DESC);
      CREATE INDEX audit_logs_action_idx ON audit_logs (action, timestamp DESC, id DESC);
      CREATE INDEX audit_logs_ip_idx ON audit_logs (ip_address, timestamp DESC, id DESC);
      CREATE INDEX audit_logs_security_idx ON audit_logs (timestamp DESC, id DESC) WHERE ${SECURITY_PREDICATE};
      CREATE INDEX audit_logs_errors_idx ON audit_logs (timestamp DESC, id DESC) WHERE ${ERROR_PREDICATE};
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
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DROP TRIGGER IF EXISTS audit_logs_append_only ON audit_logs;
      DROP FUNCTION IF EXISTS audit_logs_append_only();
      DROP INDEX IF EXISTS audit_logs_timestamp_idx;
      ALTER TABLE audit_logs DROP COLUMN IF EXISTS summary_kind;
      CREATE INDEX audit_logs_timestamp_idx ON audit_logs (timestamp DESC, id DESC);
      DROP INDEX IF EXISTS audit_logs_entity_idx, audit_logs_entity_type_idx, audit_logs_user_idx,
        audit_logs_action_idx, audit_logs_ip_idx, audit_logs_security_idx, audit_logs_errors_idx,
        audit_logs_message_trgm_idx;
    `);
    if (!(await isSandboxSchema(queryRunner))) {
      await queryRunner.query('DROP TABLE IF EXISTS audit_retention_policies');
    }
  }
}
