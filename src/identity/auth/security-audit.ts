import { Injectable, Logger } from '@nestjs/common';
import { AuditEntry, AuditWriter } from '../../audit-trail/audit-writer';
import { TenantDatabase } from '../../tenancy/tenant-database';

/**
 * Audit entries of authentication events that are not part of a data change (login attempts,
 * logout, rate limits). Written in their own statement; a failure is logged, never shown to the caller.
 */
@Injectable()
export class SecurityAudit {
  private readonly logger = new Logger(SecurityAudit.name);

  constructor(
    private readonly db: TenantDatabase,
    private readonly audit: AuditWriter,
  ) {}

  async record(event: string, entry: AuditEntry): Promise<void> {
    try {
      await this.db.production((m) =>
        this.audit.record(m, { ...entry, metadata: { ...(entry.metadata ?? {}), event } }),
      );
    } catch (err) {
      this.logger.warn(`Audit of ${event} failed: ${(err as Error).message}`);
    }
  }
}
