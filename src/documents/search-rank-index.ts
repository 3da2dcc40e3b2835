import { Injectable } from '@nestjs/common';
import { TenantDatabase } from '../tenancy/tenant-database';
import { TenantStore } from '../tenancy/tenant-context';

/** How long an answer is kept: an operator who adds the index later sees it used within this time. */
const KEEP_MS = 10 * 60_000;
/** Answers kept at most (client databases × schemas searched lately); the oldest go first. */
const MAX_ENTRIES = 10_000;

/**
 * Whether the tenant's schema has the RUM index that ranks every match (document_contents_rank_idx:
 * created by its migration only where the server offers the `rum` extension). Asked once per
 * database and schema, then kept for KEEP_MS.
 */
@Injectable()
export class RankIndexCheck {
  private readonly known = new Map<string, { present: boolean; at: number }>();

  constructor(private readonly db: TenantDatabase) {}

  async present(tenant: Pick<TenantStore, 'client' | 'schema'>): Promise<boolean> {
    const key = `${tenant.client.identifier}\u0000${tenant.schema}`;
    const kept = this.known.get(key);
    if (kept && Date.now() - kept.at < KEEP_MS) return kept.present;
    const [row] = await this.db.query<{ present: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pg_indexes
         WHERE schemaname = current_schema() AND indexname = 'document_contents_rank_idx') AS present`,
    );
    this.known.delete(key);
    if (this.known.size >= MAX_ENTRIES) this.known.delete(this.known.keys().next().value!);
    this.known.set(key, { present: row.present, at: Date.now() });
    return row.present;
  }
}
