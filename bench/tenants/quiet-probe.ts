import type { Child } from '../child';
import { latencies, Latencies, oneRequest, pacedLoad } from './paced';

export interface QuietProbe {
  /** How long each probed client was left alone, in seconds. */
  idleS: number;
  quiet: Latencies;
  busy: Latencies;
  /** The API process's CPU time per request (process.cpuUsage in the child), in ms. */
  quietCpuMs: number;
  busyCpuMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

async function apiCpuMs(server: Child): Promise<number> {
  const { user, system } = await server.ask<{ user: number; system: number }>('cpu');
  return (user + system) / 1000;
}

/**
 * For each idle time, `samples` clients of their own: each is used once, left alone for that long,
 * then sent one request (the quiet one) and at once another (to a client just used), one client at
 * a time, each on a new HTTP connection, each request's latency and the API's CPU time measured.
 * Meanwhile the other clients get `backgroundRate` req/s in turn, as a fleet's other clients would,
 * so the process and PostgreSQL are not idle when a quiet client calls. All the idle times run
 * together, so the probe lasts about the longest of them.
 */
export async function quietProbe(
  server: Child,
  ids: string[],
  tokens: Map<string, string>,
  options: { idleSeconds: number[]; samples: number; backgroundRate: number },
): Promise<QuietProbe[]> {
  const { idleSeconds, samples, backgroundRate } = options;
  const needed = idleSeconds.length * samples;
  if (ids.length < needed)
    throw new Error(`the quiet probe needs ${needed} clients, the fleet has ${ids.length}`);
  const others = ids.slice(0, ids.length - needed);
  let done = false;
  const background =
    others.length && backgroundRate > 0
      ? pacedLoad(server.port, others, tokens, backgroundRate, 24 * 3600, () => done)
      : Promise.resolve();
  try {
    return await probe(server, ids.slice(-needed), tokens, idleSeconds, samples);
  } finally {
    done = true;
    await background;
  }
}

async function probe(
  server: Child,
  ids: string[],
  tokens: Map<string, string>,
  idleSeconds: number[],
  samples: number,
): Promise<QuietProbe[]> {
  const sets = idleSeconds.map((idleS, k) => ({ idleS, clients: ids.slice(k * samples, (k + 1) * samples) }));
  const usedAt = new Map<string, number>();
  for (const { clients } of sets) {
    for (const id of clients) {
      await oneRequest(server.port, id, tokens.get(id)!);
      usedAt.set(id, Date.now());
    }
  }
  const results: QuietProbe[] = [];
  for (const { idleS, clients } of [...sets].sort((a, b) => a.idleS - b.idleS)) {
    const quiet: number[] = [];
    const busy: number[] = [];
    let quietCpu = 0;
    let busyCpu = 0;
    let non2xx = 0;
    for (const id of clients) {
      await sleep(usedAt.get(id)! + idleS * 1000 - Date.now());
      const cpu0 = await apiCpuMs(server);
      const first = await oneRequest(server.port, id, tokens.get(id)!, true);
      const cpu1 = await apiCpuMs(server);
      const second = await oneRequest(server.port, id, tokens.get(id)!, true);
      const cpu2 = await apiCpuMs(server);
      quiet.push(first.ms);
      busy.push(second.ms);
      quietCpu += cpu1 - cpu0;
      busyCpu += cpu2 - cpu1;
      non2xx += Number(first.status !== 200) + Number(second.status !== 200);
    }
    results.push({
      idleS,
      quiet: latencies(quiet, non2xx),
      busy: latencies(busy, 0),
      quietCpuMs: quietCpu / clients.length,
      busyCpuMs: busyCpu / clients.length,
    });
  }
  return results;
}
