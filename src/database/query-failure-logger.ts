import { Logger as NestLogger } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';

/**
 * TypeORM's logger: failed queries are logged with their SQL and error, never their parameters
 * (those carry password hashes, webhook headers and every other value written). Nothing else is logged.
 */
export class QueryFailureLogger implements TypeOrmLogger {
  private readonly logger = new NestLogger('Database');

  logQueryError(error: string | Error, query: string): void {
    const message = typeof error === 'string' ? error : error.message;
    this.logger.error(`Query failed: ${message} -- ${query.slice(0, 2000)}`);
  }

  logQuery(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
  }
}
