import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { HttpErrorEvent, httpErrorEvents } from '../common/errors/http-error-events';
import { tenantContext, TenantStore } from '../tenancy/tenant-context';
import { TenantDatabase } from '../tenancy/tenant-database';
import { AuditWriter } from './audit-writer';
import { AuditSettings } from './audit.settings';

/**
 * Records every error answer (4xx/5xx) in the audit trail of the request's tenant and schema, as an
 * ACCESS entry with `metadata.error = { status, code, message }` (plus method, path without query
 * string, requestId). It writes after the answer is on its way and never fails the request; errors
 * raised before a tenant was resolved (unknown client) have no tenant to be written to.
 */
@Injectable()
export class AuditErrorRecorder implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(AuditErrorRecorder.name);
  private readonly listener = (event: HttpErrorEvent) => this.onError(event);
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly db: TenantDatabase,
    private readonly audit: AuditWriter,
    private readonly settings: AuditSettings,
  ) {}

  onModuleInit() {
    if (this.settings.AUDIT_RECORD_HTTP_ERRORS) httpErrorEvents.on('http-error', this.listener);
  }

  async onModuleDestroy() {
    httpErrorEvents.off('http-error', this.listener);
    await Promise.allSettled([...this.pending]);
  }

  private onError(event: HttpErrorEvent) {
    const store = tenantContext.peek();
    if (!store || event.status < 400) return;
    const task = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.write(store, event))
      .catch((err: Error) => this.logger.warn(`Could not record error answer: ${err.message}`))
      .finally(() => this.pending.delete(task));
    this.pending.add(task);
  }

  private write(store: TenantStore, event: HttpErrorEvent): Promise<void> {
    const path = event.path.split('?')[0].slice(0, 300);
    return tenantContext.run(store, () =>
      this.db.run((m) =>
        this.audit.record(m, {
          action: 'ACCESS',
          message: `${event.method} ${path} answered ${event.status} ${event.code}`,
          ipAddress: event.ip ?? store.ip ?? null,
          userAgent: event.userAgent ?? store.userAgent ?? null,
          metadata: {
            error: { status: event.status, code: event.code, message: event.message.slice(0, 500) },
            method: event.method,
            path,
            requestId: event.requestId,
          },
        }),
      ),
    );
  }
}
