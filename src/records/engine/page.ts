import { quoteIdent } from '../../database/identifiers';
import { CursorPosition } from './cursor';
import { Params } from './params';
import { RecordType } from './record-type';
import { selectList, sortField, sqlTypeOf } from './select';

type Row = Record<string, unknown>;
type Run = (sql: string, values: unknown[]) => Promise<Row[]>;

/** The alias under which a page's rows carry the text of their sort value (for the next cursor). */
export const SORT_TEXT = '$sort';

export interface PageQuery {
  type: RecordType;
  /** Fields to answer (undefined: all). */
  fields?: ReadonlySet<string>;
  /** Conditions of the filter, status and scope, and their parameter values. */
  where: string[];
  values: unknown[];
  sort: string;
  order: 'ASC' | 'DESC';
  pageSize: number;
  /** Rows to skip (page numbers); 0 with a cursor. */
  offset: number;
  after: CursorPosition | null;
}

interface Step {
  where: (p: Params) => string;
  order: string;
}

/**
 * The rows of one page, in the order `sort` then id, rows without a sort value last (by id). Rows
 * with a value and rows without one are read by separate statements: a unique sort field then
 * orders alone (its index has no ties to break, so the page walks the index in either direction
 * without sorting), and a cursor continues with a keyset condition instead of an OFFSET.
 */
export async function pageRows(run: Run, q: PageQuery): Promise<Row[]> {
  const steps = stepsOf(q);
  const rows: Row[] = [];
  let skip = q.offset;
  for (let i = 0; i < steps.length && rows.length < q.pageSize; i++) {
    const step = steps[i];
    const found = await run(...statement(q, step, q.pageSize - rows.length, skip));
    rows.push(...found);
    if (i === steps.length - 1 || rows.length >= q.pageSize) break;
    // This step ran out: the next one skips what the offset asks for beyond this step's rows.
    if (skip > 0) skip = found.length ? 0 : Math.max(0, skip - (await count(run, q, step)));
  }
  return rows;
}

/**
 * A page by number walks the sort order for ids alone (an index-only walk where the sort field's
 * index carries the id and the table's visibility map is current), skips `offset` of them, and only
 * then reads and shapes the rows it keeps: the skipped rows are never read whole nor cast to the
 * answer's types (nor their many relations gathered), which is what an OFFSET over the whole select
 * list costs. The outer order is the inner one (a total order), so the rows and their order are those
 * of the plain OFFSET.
 */
function statement(q: PageQuery, step: Step, limit: number, offset: number): [string, unknown[]] {
  const p = new Params();
  p.values.push(...q.values);
  const where = [...q.where, step.where(p)];
  const { column } = sortField(q.type, q.sort);
  const table = quoteIdent(q.type.table);
  const select = `SELECT ${selectList(q.type, q.fields)}, t.${quoteIdent(column)}::text AS "${SORT_TEXT}"
    FROM ${table} t`;
  const page = `WHERE ${where.join(' AND ')} ORDER BY ${step.order} LIMIT ${p.add(limit)}`;
  if (!offset) return [`${select} ${page}`, p.values];
  const ids = `SELECT t."id" FROM ${table} t ${page} OFFSET ${p.add(offset)}`;
  return [`${select} WHERE t."id" = ANY (ARRAY(${ids})) ORDER BY ${step.order}`, p.values];
}

async function count(run: Run, q: PageQuery, step: Step): Promise<number> {
  const p = new Params();
  p.values.push(...q.values);
  const where = [...q.where, step.where(p)];
  const [row] = await run(
    `SELECT count(*)::int AS n FROM ${quoteIdent(q.type.table)} t WHERE ${where.join(' AND ')}`,
    p.values,
  );
  return row.n as number;
}

function stepsOf(q: PageQuery): Step[] {
  const target = sortField(q.type, q.sort);
  const { column, field } = target;
  const dir = q.order === 'ASC' ? 'ASC' : 'DESC';
  const after = dir === 'ASC' ? '>' : '<';
  const id = `t."id"`;
  const position = q.after;
  if (column === 'id') {
    return [
      {
        where: (p) => (position ? `${id} ${after} ${p.add(position.id, 'bigint')}` : 'TRUE'),
        order: `${id} ${dir}`,
      },
    ];
  }
  const col = `t.${quoteIdent(column)}`;
  const sqlType = sqlTypeOf(target);
  const unique = !!(field?.def.unique || field?.def.relation === 'oneToOne');
  const nulls = (from: number | null): Step => ({
    where: (p) => `${col} IS NULL${from === null ? '' : ` AND ${id} ${after} ${p.add(from, 'bigint')}`}`,
    order: `${id} ${dir}`,
  });
  const valued = (from: CursorPosition | null): Step => ({
    where: (p) => {
      if (!from) return `${col} IS NOT NULL`;
      const value = p.add(from.value, sqlType);
      return unique
        ? `${col} ${after} ${value}`
        : `(${col} ${after} ${value} OR (${col} = ${value} AND ${id} ${after} ${p.add(from.id, 'bigint')}))`;
    },
    order: unique ? `${col} ${dir}` : `${col} ${dir}, ${id} ${dir}`,
  });
  if (dir === 'DESC' && q.type.nullsFirstWhenDescending) {
    // PostgreSQL's own order: rows without a value come first when descending.
    if (!position) return [nulls(null), valued(null)];
    return position.value === null ? [nulls(position.id), valued(null)] : [valued(position)];
  }
  if (position && position.value === null) return [nulls(position.id)];
  return [valued(position), nulls(null)];
}
