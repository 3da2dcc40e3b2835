import { QueryRunner } from 'typeorm';
import { isSandboxSchema as isSandboxSchemaName } from '../src/tenancy/sandbox-naming';

/**
 * Client migrations run once in `public` and once in every `sandbox_*` schema. Identity tables
 * (users, roles, companies, tokens, sandboxes, ...) exist only in `public`: a sandbox's search_path is
 * `sandbox_x, public`, so they resolve there. Data tables are created in every schema.
 */
export async function isSandboxSchema(queryRunner: QueryRunner): Promise<boolean> {
  const [row] = await queryRunner.query('SELECT current_schema() AS schema');
  return isSandboxSchemaName(String(row.schema));
}
