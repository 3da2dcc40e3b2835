import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RecordChanges } from '../../records/record-changes';
import { ClientRegistry } from '../../tenancy/client-registry';
import { MASTER_CLIENT, PRODUCTION_SCHEMA, TenantClient, tenantContext } from '../../tenancy/tenant-context';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { OBLIGATION_KIND } from '../obligations/obligations.service';
import { ComplianceRepository, DAILY_BATCH, EXPIRY_NOTICE_DAYS, NoticeDue } from '../compliance.repository';
import { PERMIT_KIND } from '../permits/permits.service';

const DAY_MS = 86_400_000;

export interface DailyResult {
  permitsExpired: number;
  expiryNotices: number;
  obligationsOverdue: number;
}

/**
 * The daily compliance work of one client database: ACTIVE permits past their expiry date become
 * EXPIRED, ACTIVE permits get `permit.expiring` at 90, 30 and 7 days before expiry (each once: the
 * last notice sent is kept on the permit), ACTIVE obligations past their due date become OVERDUE.
 * Every run leaves nothing for the next one to repeat, so running it twice changes nothing more.
 */
@Injectable()
export class ComplianceDailyJobs {
  private readonly logger = new Logger(ComplianceDailyJobs.name);

  constructor(
    private readonly db: TenantDatabase,
    private readonly changes: RecordChanges,
    private readonly registry: ClientRegistry,
    private readonly compliance: ComplianceRepository,
  ) {}

  /** Runs the day's work for a client by identifier (`master` for the master database). */
  runFor(identifier: string, now = new Date()): Promise<DailyResult> {
    const found = this.registry.findByIdentifier(identifier);
    if (!found && identifier !== MASTER_CLIENT.identifier) throw new Error(`Unknown client ${identifier}`);
    const client: TenantClient = found
      ? { identifier: found.identifier, id: found.id, isMaster: false }
      : MASTER_CLIENT;
    const store = { requestId: `task:compliance-daily:${identifier}`, client, schema: PRODUCTION_SCHEMA };
    return tenantContext.run(store, () => this.runHere(now));
  }

  /** The day's work in the current tenant context (the scheduled runner enters it). */
  async runHere(now = new Date()): Promise<DailyResult> {
    const result = {
      permitsExpired: await this.expirePermits(now),
      expiryNotices: await this.sendExpiryNotices(now),
      obligationsOverdue: await this.markOverdue(now),
    };
    if (result.permitsExpired || result.expiryNotices || result.obligationsOverdue) {
      this.logger.log(`${tenantContext.get().client.identifier}: ${JSON.stringify(result)}`);
    }
    return result;
  }

  private expirePermits(now: Date): Promise<number> {
    return this.inBatches(
      (m) => this.compliance.lockExpiredPermits(m, now).then((ids) => ids.map((id) => ({ id, due: 0 }))),
      async (m, { id }) => {
        const before = await this.compliance.permit(m, id);
        const after = await this.compliance.savePermit(m, { ...before, status: 'EXPIRED' });
        await this.changes.updated(m, PERMIT_KIND, before, after);
      },
    );
  }

  /**
   * A notice for each ACTIVE permit that has reached a threshold (the smallest one reached) it
   * has not been told about yet; the threshold sent is kept on the permit.
   */
  private sendExpiryNotices(now: Date): Promise<number> {
    const until = new Date(now.getTime() + EXPIRY_NOTICE_DAYS[0] * DAY_MS);
    return this.inBatches(
      (m) => this.compliance.lockNoticesDue(m, now, until),
      async (m, { id, due }) => {
        const permit = await this.compliance.permit(m, id);
        await this.compliance.setNoticeDays(m, id, due);
        const daysLeft = Math.ceil((permit.expiryDate!.getTime() - now.getTime()) / DAY_MS);
        const attributes = { ...permit, daysBeforeExpiry: due, daysLeft };
        await this.changes.publish(m, PERMIT_KIND, 'permit.expiring', attributes, null);
      },
    );
  }

  private markOverdue(now: Date): Promise<number> {
    return this.inBatches(
      (m) => this.compliance.lockOverdueObligations(m, now).then((ids) => ids.map((id) => ({ id, due: 0 }))),
      async (m, { id }) => {
        const before = await this.compliance.obligation(m, id);
        const after = await this.compliance.saveObligation(m, { ...before, status: 'OVERDUE' });
        await this.changes.updated(m, OBLIGATION_KIND, before, after, 'obligation.overdue');
      },
    );
  }

  /**
   * Handles the rows `lock` finds, a batch per transaction, until a batch comes back short;
   * answers how many were handled. A row is handled once per run even if it still matches.
   */
  private async inBatches(
    lock: (m: EntityManager) => Promise<NoticeDue[]>,
    each: (m: EntityManager, row: NoticeDue) => Promise<void>,
  ): Promise<number> {
    let done = 0;
    const seen = new Set<number>();
    for (;;) {
      const handled = await this.db.transaction(async (m) => {
        const rows = await lock(m);
        const fresh = rows.filter((r) => !seen.has(r.id));
        for (const row of fresh) {
          seen.add(row.id);
          await each(m, row);
          done++;
        }
        return fresh.length;
      });
      if (handled < DAILY_BATCH) return done;
    }
  }
}
