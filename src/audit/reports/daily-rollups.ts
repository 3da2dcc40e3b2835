import { EntityManager } from 'typeorm';
import { AuditReportsRepository, RollupRow } from './audit-reports.repository';
import { addRows, emptyCounts, GroupRow, SummaryCounts } from './summary-counts';

const DAY_MS = 86_400_000;

export const startOfUtcDay = (t: Date) => new Date(Math.floor(t.getTime() / DAY_MS) * DAY_MS);
export const isoDay = (t: Date) => t.toISOString().slice(0, 10);

/**
 * Summary counts of whole, completed UTC days [firstDay, endDay) from `audit_daily_rollups`,
 * computing (in one scan) and storing the days not cached yet.
 */
export async function countsOfDays(
  reports: AuditReportsRepository,
  m: EntityManager,
  firstDay: Date,
  endDay: Date,
): Promise<SummaryCounts> {
  const total = emptyCounts();
  const cached = await reports.rollups(m, isoDay(firstDay), isoDay(endDay));
  const have = new Set(cached.map((r) => r.day));
  for (const r of cached) merge(total, r);
  const missing: string[] = [];
  for (let t = firstDay.getTime(); t < endDay.getTime(); t += DAY_MS) {
    const day = isoDay(new Date(t));
    if (!have.has(day)) missing.push(day);
  }
  if (!missing.length) return total;

  const from = new Date(`${missing[0]}T00:00:00.000Z`);
  const to = new Date(new Date(`${missing[missing.length - 1]}T00:00:00.000Z`).getTime() + DAY_MS);
  const rows = await reports.dailyCounts(m, from, to);
  const perDay = new Map<string, GroupRow[]>(missing.map((d) => [d, []]));
  for (const r of rows) perDay.get(r.day)?.push(r);
  for (const [day, dayRows] of perDay) {
    const counts = addRows(emptyCounts(), dayRows);
    await reports.storeRollup(m, {
      day,
      counts: { action: counts.action, type: counts.type, kind: counts.kind },
      user_ids: [...counts.users].map(Number),
      ip_addresses: [...counts.ips],
    });
    addRows(total, dayRows);
  }
  return total;
}

function merge(into: SummaryCounts, r: RollupRow) {
  for (const dim of ['action', 'type', 'kind'] as const) {
    for (const [key, n] of Object.entries(r.counts[dim] ?? {})) into[dim][key] = (into[dim][key] ?? 0) + n;
  }
  for (const id of r.user_ids) into.users.add(String(id));
  for (const ip of r.ip_addresses) into.ips.add(ip);
}
