import { execSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

function processTicks(pid: string | number): number {
  try {
    // Fields after the parenthesised command name; utime and stime are the 12th and 13th of them.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0; // exited meanwhile
  }
}

const isPostgres = (pid: string) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
  } catch {
    return false;
  }
};

/**
 * CPU seconds used so far by one process and by all PostgreSQL server processes together (Linux
 * /proc; null elsewhere), to tell what a request costs the app from what it costs the database.
 */
export function cpuSeconds(pid: number): { app: number; postgres: number } | null {
  try {
    ticksPerSecond ??= Number(execSync('getconf CLK_TCK').toString().trim()) || 100;
    const postgres = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name) && isPostgres(name))
      .reduce((sum, name) => sum + processTicks(name), 0);
    return { app: processTicks(pid) / ticksPerSecond, postgres: postgres / ticksPerSecond };
  } catch {
    return null;
  }
}
