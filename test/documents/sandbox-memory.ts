import { readdirSync, readFileSync } from 'node:fs';

/**
 * Resident memory now and at its peak, in MiB, of each parse sandbox process this process started
 * (Linux: read from /proc, so it needs nothing of the sandbox's code).
 */
export function sandboxMemoryMb(): { pid: number; resident: number; peak: number }[] {
  const found: { pid: number; resident: number; peak: number }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'latin1');
      if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) !== process.pid) continue;
      if (!readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes('parse-worker')) continue;
      const mib = (field: string) =>
        Math.round(Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1]) / 1024);
      found.push({ pid: Number(entry), resident: mib('VmRSS'), peak: mib('VmHWM') });
    } catch {
      // ended meanwhile
    }
  }
  return found;
}
