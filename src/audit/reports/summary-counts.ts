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

/** The grouping sets of one or more periods; `$1`/`$2` bound the rows, `byDay` adds the UTC day. */
export function groupingSql(where: string, byDay = false): string {
  const day = byDay ? `(timestamp AT TIME ZONE 'UTC')::date` : '';
  const set = (col: string) => (byDay ? `(${day}, ${col})` : `(${col})`);
  return `SELECT ${byDay ? `to_char(${day}, 'YYYY-MM-DD') AS day,` : ''}
                 CASE WHEN GROUPING(action) = 0 THEN 'action' WHEN GROUPING(entity_type) = 0 THEN 'type'
                      WHEN GROUPING(summary_kind) = 0 THEN 'kind' WHEN GROUPING(user_id) = 0 THEN 'user'
                      ELSE 'ip' END AS dim,
                 coalesce(action, entity_type, summary_kind::text, user_id::text, ip_address) AS key,
                 count(*) AS n
            FROM audit_logs WHERE ${where}
           GROUP BY GROUPING SETS (${['action', 'entity_type', 'summary_kind', 'user_id', 'ip_address'].map(set).join(', ')})`;
}
