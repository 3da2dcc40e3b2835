import { Injectable, Logger } from '@nestjs/common';
import { stringify } from 'csv-stringify/sync';
import type { Response } from 'express';
import { once } from 'node:events';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { AuditWriter } from '../../audit-trail/audit-writer';
import { ExportFormat } from '../dto/audit-query.dto';
import { AuditEntriesRepository } from '../queries/audit-entries.repository';
import { AuditFilter } from '../queries/audit-filter';
import { AuditEntryView, toEntryView } from '../queries/audit-row';

const FETCH = 1000;
const CSV_COLUMNS: (keyof AuditEntryView)[] = [
  'id',
  'timestamp',
  'action',
  'entityType',
  'entityId',
  'userId',
  'username',
  'ipAddress',
  'userAgent',
  'message',
  'changes',
  'metadata',
];

/** A cell a spreadsheet would run as a formula gets a leading quote (CSV injection). */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/**
 * Streams matching entries (newest first) from a server-side cursor, FETCH rows at a time, with
 * back-pressure. The EXPORT entry is committed before the first byte leaves.
 */
@Injectable()
export class AuditExportService {
  private readonly logger = new Logger(AuditExportService.name);

  constructor(
    private readonly db: TenantDatabase,
    private readonly audit: AuditWriter,
    private readonly entries: AuditEntriesRepository,
  ) {}

  async export(filter: AuditFilter, format: ExportFormat, described: Record<string, unknown>, res: Response) {
    await this.db.transaction((m) =>
      this.audit.record(m, {
        action: 'EXPORT',
        entityType: 'AuditLog',
        message: `Audit log exported as ${format}`,
        metadata: { format, filters: described },
      }),
    );
    try {
      await this.db.transaction(async (m) => {
        await this.entries.openExport(m, filter);
        const stamp = new Date().toISOString().replace(/[:.]/g, '-');
        res.status(200);
        res.setHeader('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson');
        res.setHeader('Content-Disposition', `attachment; filename="audit-export-${stamp}.${format}"`);
        if (format === 'csv') await this.write(res, stringify([CSV_COLUMNS]));
        for (;;) {
          const rows = await this.entries.fetchExport(m, FETCH);
          if (!rows.length) break;
          const views = rows.map(toEntryView);
          const chunk =
            format === 'csv'
              ? stringify(views.map((v) => CSV_COLUMNS.map((c) => cell(v[c]))))
              : views.map((v) => `${JSON.stringify(v)}\n`).join('');
          if (!(await this.write(res, chunk))) break;
          if (rows.length < FETCH) break;
        }
        await this.entries.closeExport(m);
      }, 'REPEATABLE READ');
      res.end();
    } catch (err) {
      if (!res.headersSent) throw err;
      this.logger.error(`Audit export failed midway: ${(err as Error).message}`);
      res.destroy(err as Error);
    }
  }

  /** Writes a chunk; waits for drain; false when the client went away. */
  private async write(res: Response, chunk: string): Promise<boolean> {
    if (res.destroyed) return false;
    if (!res.write(chunk)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
    return !res.destroyed;
  }
}
