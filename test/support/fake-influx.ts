import http, { IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One stored point: measurement, tags, fields and its nanosecond timestamp. */
export interface InfluxPoint {
  measurement: string;
  tags: Record<string, string>;
  fields: Record<string, string | number | boolean>;
  ns: bigint;
}

type FluxRow = Record<string, string | number | boolean>;

/**
 * A local peer speaking the InfluxDB 2 write API (`POST /api/v2/write`, line protocol) and query API
 * (`POST /api/v2/query`, Flux in, annotated CSV out). Its Flux is the subset a conversation log
 * needs, evaluated over the stored points: range, filter on equalities, group, reduce (count and
 * sum), mean, sum, count, quantile (exact_mean), aggregateWindow, window, distinct, duplicate,
 * sort, limit, pivot.
 */
export class FakeInflux {
  readonly points: InfluxPoint[] = [];
  readonly requests: { path: string; authorization?: string }[] = [];
  /** Statuses the next writes answer instead of storing. */
  readonly failWrites: number[] = [];
  private server?: http.Server;
  port = 0;

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        let body = Buffer.concat(chunks);
        if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        this.handle(req, res, body.toString('utf8'));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop() {
    this.server?.closeAllConnections();
    await new Promise((r) => this.server?.close(r));
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  private handle(req: IncomingMessage, res: ServerResponse, body: string) {
    const url = new URL(req.url ?? '/', this.url);
    this.requests.push({ path: `${url.pathname}${url.search}`, authorization: req.headers.authorization });
    if (url.pathname === '/health') return void res.writeHead(200).end('{"status":"pass"}');
    if (url.pathname === '/api/v2/write' && req.method === 'POST') {
      const fail = this.failWrites.shift();
      if (fail)
        return void res.writeHead(fail, { 'Content-Type': 'application/json' }).end('{"code":"unavailable"}');
      for (const line of body.split('\n').filter((l) => l.trim())) this.store(parseLine(line));
      return void res.writeHead(204).end();
    }
    if (url.pathname === '/api/v2/query' && req.method === 'POST') {
      const { query } = JSON.parse(body) as { query: string };
      try {
        const rows = this.evaluate(query);
        res.writeHead(200, { 'Content-Type': 'text/csv; charset=utf-8' }).end(toCsv(rows));
      } catch (err) {
        res
          .writeHead(400, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ message: String(err) }));
      }
      return;
    }
    res.writeHead(404).end();
  }

  /** Same series and timestamp: the point is replaced, as InfluxDB does. */
  private store(p: InfluxPoint) {
    const key = (x: InfluxPoint) =>
      `${x.measurement}|${JSON.stringify(Object.entries(x.tags).sort())}|${x.ns}`;
    const at = this.points.findIndex((q) => key(q) === key(p));
    if (at >= 0) this.points[at] = { ...p, fields: { ...this.points[at].fields, ...p.fields } };
    else this.points.push(p);
  }

  private evaluate(query: string): FluxRow[] {
    const steps = query.split('|>').map((s) => s.trim());
    let rows: FluxRow[] = this.points.flatMap((p) =>
      Object.entries(p.fields).map(([field, value]) => ({
        _time: nsToIso(p.ns),
        _ns: Number(p.ns / 1_000_000n),
        _measurement: p.measurement,
        _field: field,
        _value: value,
        ...p.tags,
      })),
    );
    let groups: FluxRow[][] = [rows];
    let groupKeys: string[] = [];
    const regroup = (columns: string[]) => {
      groupKeys = columns;
      const all = groups.flat();
      const map = new Map<string, FluxRow[]>();
      for (const r of all) {
        const k = JSON.stringify(columns.map((c) => r[c]));
        map.set(k, [...(map.get(k) ?? []), r]);
      }
      groups = [...map.values()];
    };
    const keep = (rowsOf: FluxRow[], extra: FluxRow): FluxRow => {
      const out: FluxRow = {};
      for (const c of groupKeys) out[c] = rowsOf[0]?.[c];
      return { ...out, ...extra };
    };
    const values = (g: FluxRow[]) => g.map((r) => Number(r._value));
    for (const step of steps.slice(1)) {
      let m: RegExpMatchArray | null;
      if ((m = step.match(/^range\(start: time\(v: "([^"]+)"\), stop: time\(v: "([^"]+)"\)\)/))) {
        const [start, stop] = [Date.parse(m[1]), Date.parse(m[2])];
        groups = groups.map((g) => g.filter((r) => Number(r._ns) >= start && Number(r._ns) < stop));
      } else if (step.startsWith('filter(')) {
        const conds = [...step.matchAll(/r\.(\w+) == "((?:[^"\\]|\\.)*)"/g)].map((c) => [
          c[1],
          c[2].replace(/\\(.)/g, '$1'),
        ]);
        groups = groups.map((g) => g.filter((r) => conds.every(([k, v]) => String(r[k]) === v)));
      } else if ((m = step.match(/^group\((?:columns: \[([^\]]*)\])?\)/))) {
        regroup(m[1] ? [...m[1].matchAll(/"([^"]+)"/g)].map((c) => c[1]) : []);
      } else if (step.startsWith('reduce(')) {
        groups = groups
          .filter((g) => g.length)
          .map((g) => [keep(g, { count: g.length, totalTokens: values(g).reduce((a, b) => a + b, 0) })]);
      } else if (step.startsWith('mean()')) {
        groups = groups
          .filter((g) => g.length)
          .map((g) => [keep(g, { _value: values(g).reduce((a, b) => a + b, 0) / g.length })]);
      } else if (step.startsWith('sum()')) {
        groups = groups
          .filter((g) => g.length)
          .map((g) => [keep(g, { _value: values(g).reduce((a, b) => a + b, 0) })]);
      } else if (step.startsWith('count()')) {
        groups = groups.map((g) => [
          keep(g, { ...(g[0]?._start ? { _start: g[0]._start } : {}), _value: g.length }),
        ]);
      } else if ((m = step.match(/^quantile\(q: ([\d.]+), method: "exact_mean"\)/))) {
        const q = Number(m[1]);
        groups = groups
          .filter((g) => g.length)
          .map((g) => {
            const v = values(g).sort((a, b) => a - b);
            const rank = q * (v.length - 1);
            return [keep(g, { _value: (v[Math.floor(rank)] + v[Math.ceil(rank)]) / 2 })];
          });
      } else if (
        (m = step.match(/^aggregateWindow\(every: duration\(v: "(\d+)([mhd])"\), fn: (sum|count)/))
      ) {
        const every = Number(m[1]) * { m: 60000, h: 3600000, d: 86400000 }[m[2] as 'm' | 'h' | 'd'];
        const fn = m[3];
        groups = groups.map((g) => {
          const buckets = new Map<number, FluxRow[]>();
          for (const r of g) {
            const start = Math.floor(Number(r._ns) / every) * every;
            buckets.set(start, [...(buckets.get(start) ?? []), r]);
          }
          return [...buckets.entries()]
            .sort((a, b) => a[0] - b[0])
            .map(([start, list]) =>
              keep(list, {
                _time: new Date(start).toISOString(),
                _value: fn === 'sum' ? values(list).reduce((a, b) => a + b, 0) : list.length,
              }),
            );
        });
      } else if ((m = step.match(/^window\(every: duration\(v: "(\d+)([mhd])"\)\)/))) {
        const every = Number(m[1]) * { m: 60000, h: 3600000, d: 86400000 }[m[2] as 'm' | 'h' | 'd'];
        const buckets = new Map<number, FluxRow[]>();
        for (const r of groups.flat()) {
          const start = Math.floor(Number(r._ns) / every) * every;
          buckets.set(start, [
            ...(buckets.get(start) ?? []),
            { ...r, _start: new Date(start).toISOString() },
          ]);
        }
        groups = [...buckets.entries()].sort((a, b) => a[0] - b[0]).map(([, list]) => list);
      } else if (step.startsWith('distinct()')) {
        groups = groups.map((g) => {
          const seen = new Map<string, FluxRow>();
          for (const r of g) if (!seen.has(String(r._value))) seen.set(String(r._value), r);
          return [...seen.values()];
        });
      } else if ((m = step.match(/^duplicate\(column: "(\w+)", as: "(\w+)"\)/))) {
        const [from, to] = [m[1], m[2]];
        groups = groups.map((g) => g.map((r) => ({ ...r, [to]: r[from] })));
      } else if ((m = step.match(/^sort\(columns: \["(\w+)"\], desc: true\)/))) {
        const col = m[1];
        const cmp = (a: FluxRow, b: FluxRow) =>
          col === '_time' ? Number(b._ns) - Number(a._ns) : Number(b[col]) - Number(a[col]);
        groups = groups.map((g) => [...g].sort(cmp));
      } else if ((m = step.match(/^limit\(n: (\d+)\)/))) {
        const n = Number(m[1]);
        groups = groups.map((g) => g.slice(0, n));
      } else if (step.startsWith('pivot(')) {
        groups = groups.map((g) => {
          const byTime = new Map<string, FluxRow>();
          for (const r of g) {
            const { _field, _value, ...rest } = r;
            byTime.set(String(r._ns) + String(r.username), {
              ...(byTime.get(String(r._ns) + String(r.username)) ?? rest),
              [String(_field)]: _value,
            });
          }
          return [...byTime.values()];
        });
      } else {
        throw new Error(`fake influx: unsupported step ${step}`);
      }
    }
    rows = groups.flat();
    return rows;
  }
}

/** Line protocol: `measurement,tag=v field=1i,s="x" <ns>` with backslash escapes. */
export function parseLine(line: string): InfluxPoint {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\') {
      current += c + line[++i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === ' ' && !quoted) {
      parts.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  parts.push(current);
  const [head, fieldText, ts] = parts;
  const split = (text: string, sep: string) => {
    const out: string[] = [];
    let cur = '';
    let q = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === '\\') {
        cur += c + text[++i];
        continue;
      }
      if (c === '"') q = !q;
      if (c === sep && !q) {
        out.push(cur);
        cur = '';
        continue;
      }
      cur += c;
    }
    out.push(cur);
    return out;
  };
  const unescape = (s: string) => s.replace(/\\(.)/g, '$1');
  const [measurement, ...tagParts] = split(head, ',');
  const tags = Object.fromEntries(tagParts.map((t) => split(t, '=').map(unescape) as [string, string]));
  const fields: Record<string, string | number | boolean> = {};
  for (const f of split(fieldText, ',')) {
    const eq = f.indexOf('=');
    const key = unescape(f.slice(0, eq));
    const raw = f.slice(eq + 1);
    if (raw.startsWith('"')) fields[key] = raw.slice(1, -1).replace(/\\(["\\])/g, '$1');
    else if (/^-?\d+i$/.test(raw)) fields[key] = Number(raw.slice(0, -1));
    else if (raw === 'true' || raw === 'false') fields[key] = raw === 'true';
    else fields[key] = Number(raw);
  }
  return { measurement: unescape(measurement), tags, fields, ns: BigInt(ts) };
}

const nsToIso = (ns: bigint) => new Date(Number(ns / 1_000_000n)).toISOString();

/** Annotated CSV as the query API answers it (every column as a string; the client converts). */
function toCsv(rows: FluxRow[]): string {
  if (!rows.length) return '';
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((c) => c !== '_ns');
  const quote = (v: string | number | boolean | undefined) => {
    const s = v === undefined ? '' : String(v);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [
    `#datatype,string,long,${columns.map(() => 'string').join(',')}`,
    `#group,false,false,${columns.map(() => 'false').join(',')}`,
    `#default,_result,,${columns.map(() => '').join(',')}`,
    `,result,table,${columns.join(',')}`,
    ...rows.map((r) => `,,0,${columns.map((c) => quote(r[c])).join(',')}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}
