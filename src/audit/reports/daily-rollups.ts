import { EntityManager } from 'typeorm';
import { addRows, emptyCounts, GroupRow, groupingSql, SummaryCounts } from './summary-counts';

const DAY_MS = 86_400_000;

interface RollupRow {
  day: string;
  counts: { action: Record<string, number>; type: Record<string, number>; kind: Record<string, number> };
  user_ids: number[];
  ip_addresses: string[];
}

export const startOfUtcDay = (t: Date) => new Date(Math.floor(t.getTime() / DAY_MS) * DAY_MS);
export const isoDay = (t: Date) => t.toISOString().slice(0, 10);

/**
 * Summary counts of whole, completed UTC days [firstDay, endDay) from `audit_daily_rollups`,
 * computing (in one scan) and storing the days not cached yet.
 */
export async function countsOfDays(m: EntityManager, firstDay: Date, endDay: Date): Promise<SummaryCounts> {
  const total = emptyCounts();
  const cached: RollupRow[] = await m.query(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, counts, user_ids, ip_addresses
       FROM audit_daily_rollups WHERE day >= $1::date AND day < $2::date`,
    [isoDay(firstDay), isoDay(endDay)],
  );
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
  const rows: (GroupRow & { day: string })[] = await m.query(
    groupingSql('timestamp >= $1 AND timestamp < $2', true),
    [from, to],
  );
  const perDay = new Map<string, GroupRow[]>(missing.map((d) => [d, []]));
  for (const r of rows) perDay.get(r.day)?.push(r);
  for (const [day, dayRows] of perDay) {
    const counts = addRows(emptyCounts(), dayRows);
    await m.query(
      `INSERT INTO audit_daily_rollups (day, counts, user_ids, ip_addresses) VALUES ($1::date, $2, $3, $4)
       ON CONFLICT (day) DO NOTHING`,
      [
        day,
        JSON.stringify({ action: counts.action, type: counts.type, kind: counts.kind }),
        [...counts.users].map(Number),
        [...counts.ips],
      ],
    );
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
