import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}
export interface Phase {
  name: string;
  /** Microseconds of the monotonic clock (process.hrtime), the clock of a V8 profile's timestamps. */
  startUs: number;
  endUs: number;
}

/** Marks of the bench's phases, written beside the profiles so this script can cut them. */
export function phaseMark(name: string, start: bigint): Phase {
  return { name, startUs: Number(start / 1000n), endUs: Number(process.hrtime.bigint() / 1000n) };
}

const frameName = ({ callFrame: f }: ProfileNode) =>
  `${f.functionName || '(anonymous)'} ${f.url ? `${basename(f.url)}:${f.lineNumber + 1}` : ''}`.trim();

/** The frames with the most self time among the samples taken between `from` and `to` (µs). */
export function topFrames(profile: CpuProfile, from: number, to: number, count: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let at = profile.startTime;
  let total = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i];
    if (at < from || at > to) return;
    total++;
    const name = frameName(byId.get(id)!);
    self.set(name, (self.get(name) ?? 0) + 1);
  });
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, count);
  return { total, top: top.map(([name, n]) => ({ name, share: n / Math.max(1, total) })) };
}

/**
 * `node dist-bench/bench/profile-top.js <profile.cpuprofile> <phases.json> [frames]`: for each phase
 * of the bench run (from the phases file `tenants/load` writes with BENCH_PROFILE_DIR), the samples
 * of the profile taken during it and the frames with the most self time.
 */
function main() {
  const [profileFile, phasesFile, frames = '15'] = process.argv.slice(2);
  if (!profileFile || !phasesFile) throw new Error('usage: profile-top <profile> <phases.json> [frames]');
  const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as CpuProfile;
  const phases = JSON.parse(readFileSync(phasesFile, 'utf8')) as Phase[];
  for (const phase of phases) {
    const { total, top } = topFrames(profile, phase.startUs, phase.endUs, Number(frames));
    const seconds = (phase.endUs - phase.startUs) / 1e6;
    console.log(
      `\n${phase.name}: ${total} samples in ${seconds.toFixed(1)} s (one every ${((seconds * 1000) / Math.max(1, total)).toFixed(2)} ms)`,
    );
    for (const { name, share } of top) console.log(`  ${(share * 100).toFixed(1).padStart(5)}%  ${name}`);
  }
}

if (require.main === module) main();
