import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { HttpErrorEvent, httpErrorEvents } from '../common/errors/http-error-events';
import { MetricsService } from '../observability/metrics/metrics.service';
import { tenantContext, TenantStore } from '../tenancy/tenant-context';
import { TenantDatabase } from '../tenancy/tenant-database';
import { AuditWriter } from './audit-writer';
import { AuditSettings } from './audit.settings';

/**
 * Records every error answer (4xx/5xx) to an authenticated caller in the audit trail of the
 * request's tenant and schema, as an ACCESS entry with `metadata.error = { status, code, message }`
 * (plus method, path without query string, requestId). It writes after the answer is on its way and
 * never fails the request. Errors of anonymous callers (no valid credential, or one not checked yet)
 * only go to the debug log and the `http_anonymous_errors_total` metric: anyone can cause them, and
 * writing them would let anyone fill a tenant's audit trail and open its database pool.
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
    private readonly metrics: MetricsService,
  ) {}

  onModuleInit() {
    if (this.settings.AUDIT_RECORD_HTTP_ERRORS) httpErrorEvents.on('http-error', this.listener);
  }

  async onModuleDestroy() {
    httpErrorEvents.off('http-error', this.listener);
    await Promise.allSettled([...this.pending]);
  }

  private onError(event: HttpErrorEvent) {
    if (event.status < 400) return;
    const store = tenantContext.peek();
    if (!store?.principal) {
      this.metrics.anonymousErrors.inc({ status: String(event.status) });
      this.logger.debug(
        `Anonymous ${event.method} ${event.path.split('?')[0].slice(0, 300)} answered ${event.status} ${event.code} [${event.requestId}]`,
      );
      return;
    }
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
