/** What other features may use of platform administration. */
export { MigrationSummary } from './migration-summary';
export type { ClientMigrationCounts, MigrationsSummary } from './migration-summary';
