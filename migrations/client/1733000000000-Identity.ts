import { MigrationInterface, QueryRunner } from 'typeorm';
import { isSandboxSchema } from '../schema-scope';

/** Two-factor, e-mail confirmation and API tokens: identity tables, in `public` only. */
export class Identity1733000000000 implements MigrationInterface {
  name = 'Identity1733000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (await isSandboxSchema(queryRunner)) return;
    await queryRunner.query(`
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
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (await isSandboxSchema(queryRunner)) return;
    await queryRunner.query(`
      DROP TABLE IF EXISTS api_tokens;
      DROP INDEX IF EXISTS users_confirmation_token_uq;
      ALTER TABLE users
        DROP COLUMN two_factor_enabled, DROP COLUMN two_factor_secret, DROP COLUMN two_factor_pending_secret,
        DROP COLUMN two_factor_recovery_hashes, DROP COLUMN two_factor_pending_recovery_hashes,
        DROP COLUMN two_factor_last_step, DROP COLUMN confirmation_token_hash, DROP COLUMN confirmation_expires_at;
    `);
  }
}
