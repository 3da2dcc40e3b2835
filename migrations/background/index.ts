import { AuditLogsCompany } from './audit-logs-company';
import { BackgroundMigration } from './background-migration';

export type { BackgroundMigration, BatchResult } from './background-migration';

/** Background data migrations, in the order they run (see docs/conventions.md, "Background migrations"). */
export const BACKGROUND_MIGRATIONS: readonly BackgroundMigration[] = [AuditLogsCompany];
