/** What a compliance summary adds up: counts per dimension and the distinct users and addresses. */
export interface SummaryCounts {
  action: Record<string, number>;
  type: Record<string, number>;
  kind: Record<string, number>;
  users: Set<string>;
  ips: Set<string>;
}

export type Dimension = 'action' | 'type' | 'kind' | 'user' | 'ip';

export interface GroupRow {
  dim: Dimension;
  key: string | null;
  n: string;
}

export const emptyCounts = (): SummaryCounts => ({
  action: {},
  type: {},
  kind: {},
  users: new Set(),
  ips: new Set(),
});

/** Adds grouping-set rows (dimension, key, count) into `into`. */
export function addRows(into: SummaryCounts, rows: GroupRow[]): SummaryCounts {
  for (const r of rows) {
    if (r.key === null) continue;
    if (r.dim === 'user') into.users.add(r.key);
    else if (r.dim === 'ip') into.ips.add(r.key);
    else into[r.dim][r.key] = (into[r.dim][r.key] ?? 0) + Number(r.n);
  }
  return into;
}
