import { execSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

type Group = 'api' | 'backends' | 'autovacuum' | 'postgres other' | 'load generator';

interface Stat {
  ppid: number;
  ticks: number;
  childTicks: number;
}

const TICKS = Number(execSync('getconf CLK_TCK').toString().trim()) || 100;

function stat(pid: number): Stat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name: ppid is the 2nd, utime/stime the 12th and 13th,
    // cutime/cstime (children waited for) the 14th and 15th.
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return {
      ppid: Number(f[1]),
      ticks: Number(f[11]) + Number(f[12]),
      childTicks: Number(f[13]) + Number(f[14]),
    };
  } catch {
    return null;
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '';
  }
}

/**
 * The postmaster of the bench's own cluster (BENCH_PG_DATA, set by own-cluster.ts), else null: on a
 * shared server every `postgres` process on the machine is counted (other users' included).
 */
function postmaster(): number | null {
  const data = process.env.BENCH_PG_DATA;
  if (!data) return null;
  try {
    return Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
}

function postgresGroup(pid: number): Group {
  const cmd = commandLine(pid);
  if (cmd.includes('autovacuum')) return 'autovacuum';
  // A backend's title is "postgres: <user> <database> <address> <state>".
  if (/^postgres: \S+ \S+ (\d|\[local\])/.test(cmd)) return 'backends';
  return 'postgres other';
}

function postgresPids(master: number | null): number[] {
  const pids = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
  if (master !== null) return pids.filter((pid) => pid === master || stat(pid)?.ppid === master);
  return pids.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
    } catch {
      return false;
    }
  });
}

export interface CpuSplit {
  seconds: number;
  /** CPU seconds per group during the window. */
  groups: Record<Group, number>;
  /** CPU of PostgreSQL processes that ended during the window (the postmaster reaped them): exact. */
  exitedPostgres: number;
}

/**
 * CPU time of each process during a window, from /proc: the API child, the PostgreSQL processes
 * (client backends, autovacuum launcher and workers, the rest), and this load generator. PostgreSQL
 * processes are sampled every `everyMs`, since autovacuum workers live seconds: a process that ends
 * is counted up to its last sample, and the postmaster's reaped-children time says exactly what the
 * ended ones used. Linux only.
 */
export class ProcessCpu {
  private readonly master = postmaster();
  private readonly first = new Map<number, number>();
  private readonly last = new Map<number, { ticks: number; group: Group }>();
  private timer?: NodeJS.Timeout;
  private started = 0;
  private startedSelf = process.cpuUsage();
  private startedApi = 0;
  private startedReaped = 0;

  constructor(
    private readonly apiPid: number,
    private readonly everyMs = 500,
  ) {}

  start(): void {
    this.started = Date.now();
    this.startedSelf = process.cpuUsage();
    this.startedApi = stat(this.apiPid)?.ticks ?? 0;
    this.startedReaped = this.master === null ? 0 : (stat(this.master)?.childTicks ?? 0);
    this.sample(true);
    this.timer = setInterval(() => this.sample(false), this.everyMs);
  }

  stop(): CpuSplit {
    clearInterval(this.timer);
    this.sample(false);
    const groups: Record<Group, number> = {
      api: ((stat(this.apiPid)?.ticks ?? this.startedApi) - this.startedApi) / TICKS,
      backends: 0,
      autovacuum: 0,
      'postgres other': 0,
      'load generator': 0,
    };
    for (const [pid, { ticks, group }] of this.last)
      groups[group] += (ticks - (this.first.get(pid) ?? 0)) / TICKS;
    const self = process.cpuUsage(this.startedSelf);
    groups['load generator'] = (self.user + self.system) / 1e6;
    const reaped = this.master === null ? 0 : (stat(this.master)?.childTicks ?? 0) - this.startedReaped;
    return { seconds: (Date.now() - this.started) / 1000, groups, exitedPostgres: reaped / TICKS };
  }

  private sample(initial: boolean): void {
    for (const pid of postgresPids(this.master)) {
      const s = stat(pid);
      if (!s) continue;
      if (!this.first.has(pid)) this.first.set(pid, initial ? s.ticks : 0);
      const known = this.last.get(pid);
      this.last.set(pid, { ticks: s.ticks, group: known?.group ?? postgresGroup(pid) });
    }
  }
}

/** "api 4.1 s (41%), backends 2.0 s (20%), ..." over the window's wall time. */
export function describeCpu(split: CpuSplit): string {
  const share = (s: number) => `${s.toFixed(1)} s (${Math.round((100 * s) / split.seconds)}%)`;
  const parts = Object.entries(split.groups).map(([group, s]) => `${group} ${share(s)}`);
  return `${parts.join(', ')}; PostgreSQL processes that ended meanwhile ${share(split.exitedPostgres)}`;
}
