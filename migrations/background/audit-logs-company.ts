import { QueryRunner } from 'typeorm';
import { BackgroundMigration, BatchResult } from './background-migration';

/**
 * The company of audit entries that the release before AuditCompany1733510000000 kept writing after
 * that migration had back-filled the column (its code never set `company_id`): each takes its user's
 * company, as the migration did. Entries without a user, or whose user has no company, stay NULL.
 */
export const AuditLogsCompany: BackgroundMigration = {
  name: 'AuditLogsCompany',
  after: 'AuditCompany1733510000000',

  async batch(queryRunner: QueryRunner, cursor: string | null, batchSize: number): Promise<BatchResult> {
    // The append-only guard lets this back-fill through (the setting ends with the transaction).
    await queryRunner.query(`SELECT set_config('audit.retention', 'on', true)`);
    const [walk]: { last: string | null; rows: number }[] = await queryRunner.query(
      `WITH walked AS (
         SELECT id FROM audit_logs WHERE id > $1::bigint ORDER BY id LIMIT $2
       ), filled AS (
         UPDATE audit_logs a SET company_id = u.company_id
           FROM walked w, users u
          WHERE a.id = w.id AND a.company_id IS NULL AND u.id = a.user_id AND u.company_id IS NOT NULL
         RETURNING a.id
       )
       SELECT (SELECT max(id) FROM walked)::text AS last, (SELECT count(*) FROM walked)::int AS rows,
              (SELECT count(*) FROM filled)::int AS filled`,
      [cursor ?? '0', batchSize],
    );
    await queryRunner.query(`SELECT set_config('audit.retention', 'off', true)`);
    return { next: walk.rows < batchSize ? null : walk.last, rows: walk.rows };
  },
};
