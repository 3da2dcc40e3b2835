import { QueryRunner } from 'typeorm';

/** Sandbox schema names as they were when the first migration landed (frozen: migrations import nothing from src/). */
const SANDBOX_SCHEMA = /^sandbox_[a-z0-9_]{1,55}$/;

/**
 * Client migrations run once in `public` and once in every `sandbox_*` schema. Identity tables
 * (users, roles, companies, tokens, sandboxes, ...) exist only in `public`: a sandbox's search_path is
 * `sandbox_x, public`, so they resolve there. Data tables are created in every schema.
 */
export async function isSandboxSchema(queryRunner: QueryRunner): Promise<boolean> {
  const [row] = await queryRunner.query('SELECT current_schema() AS schema');
  return SANDBOX_SCHEMA.test(String(row.schema));
}
