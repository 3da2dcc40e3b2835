import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * Compiles the app (as `npm run build` does) into `dist/<folder>`, a folder of the calling test's
 * own so test files running side by side never write over each other's output; type errors
 * elsewhere in the tree do not stop the emit. Resolves with the output folder.
 */
export function compileApp(folder: string): Promise<string> {
  const out = join(ROOT, 'dist', folder);
  const entry = join(out, 'src', 'worker.js');
  return new Promise((resolve, reject) => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = [
      tsc,
      '-p',
      'tsconfig.build.json',
      '--outDir',
      out,
      '--tsBuildInfoFile',
      join(out, '.tsbuildinfo'),
    ];
    execFile(process.execPath, args, { cwd: ROOT }, () =>
      existsSync(entry) ? resolve(out) : reject(new Error(`tsc did not produce ${entry}`)),
    );
  });
}
