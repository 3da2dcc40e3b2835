import { Agent, request } from 'node:http';

export interface Latencies {
  count: number;
  non2xx: number;
  /** The non-2xx answers by status (`: 503 × 2, 0 (no answer) × 1`); empty when there were none. */
  statuses: string;
  p50: number;
  p95: number;
  p99: number;
}

/** `404 × 2, 0 (no answer) × 1` for the statuses counted, most frequent first. */
function statusList(counts: Map<number, number>): string {
  if (!counts.size) return '';
  const named = [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([status, n]) => `${status === 0 ? '0 (no answer)' : status} × ${n}`);
  return `: ${named.join(', ')}`;
}

export function latencies(samples: number[], non2xx: number, counts = new Map<number, number>()): Latencies {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]) : NaN;
  return {
    count: sorted.length,
    non2xx,
    statuses: statusList(counts),
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
  };
}

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

/**
 * One GET /api/units to `client`; answers its status and its latency in ms. `fresh`: on a new HTTP
 * connection (the server closes one idle for 5 s, so a probe after a pause would otherwise pay a
 * new one for its first request only).
 */
export function oneRequest(
  port: number,
  client: string,
  token: string,
  fresh = false,
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/units?page=1&pageSize=25',
        agent: fresh ? false : agent,
        headers: { 'X-Client-ID': client, Authorization: `Bearer ${token}` },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end();
  });
}

/**
 * An open-loop load: `rate` requests a second in total for `seconds`, each to the next client of
 * `ids`, sent on a fixed schedule whatever the answers do, so each client is visited every
 * ids.length / rate seconds. A latency counts from the request's planned start: a generator that
 * falls behind does not hide the wait.
 */
export async function pacedLoad(
  port: number,
  ids: string[],
  tokens: Map<string, string>,
  rate: number,
  seconds: number,
  stopped = () => false,
): Promise<Latencies> {
  const total = Math.round(rate * seconds);
  const samples: number[] = [];
  let non2xx = 0;
  const counts = new Map<number, number>();
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < total && !stopped(); i++) {
    const planned = start + (i * 1000) / rate;
    const wait = planned - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const id = ids[i % ids.length];
    inFlight.push(
      oneRequest(port, id, tokens.get(id)!).then(({ status }) => {
        samples.push(performance.now() - planned);
        if (status >= 200 && status < 300) return;
        non2xx++;
        counts.set(status, (counts.get(status) ?? 0) + 1);
      }),
    );
  }
  await Promise.all(inFlight);
  return latencies(samples, non2xx, counts);
}
