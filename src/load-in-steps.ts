/* eslint-disable @typescript-eslint/no-require-imports -- requires compiled modules by path, one step at a time */
import { readFile } from 'node:fs/promises';
import { builtinModules, createRequire } from 'node:module';
import { sep } from 'node:path';

/** A top-level `require("…")` as tsc emits imports (column 0); indented ones are lazy and left alone. */
const TOP_LEVEL_REQUIRE = /^(?=\S)[^\n]*?\brequire\("([^"]+)"\)/gm;
const BUILTIN = new Set(builtinModules);
const TSC_OUTPUT = /^"use strict";[^]*Object\.defineProperty\(exports, "__esModule", \{ value: true \}\);/;
const SLICE_MS = 10;

/**
 * Requires the compiled module graph under `entry` one module at a time, giving the event loop a
 * turn every few milliseconds, so a port opened before keeps answering while the application's
 * modules load (in one `require` they block it for more than a second). The order is the order a
 * plain `require(entry)` loads them in: modules complete leaves first, each import cycle entered at
 * the module a plain require would enter it by, so every module sees its imports as it would have
 * (imports stand first in each module, as tsc emits them; global polyfills such as reflect-metadata
 * are the entry's own first imports). Resolves with `require(entry)`, by then a cache hit.
 */
export async function loadInSteps<T>(entry: string): Promise<T> {
  const order = await loadOrder(entry);
  let slice = performance.now();
  for (const file of order) {
    require(file);
    if (performance.now() - slice > SLICE_MS) {
      await aTurnForConnections();
      slice = performance.now();
    }
  }
  return require(entry) as T;
}

/**
 * Two turns of the event loop: a connection made during the last step is accepted in the first,
 * its request read and answered in the second, so a probe waits for one step, not two.
 */
async function aTurnForConnections() {
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Our modules and the packages compiled by tsc as ours are (a few take over 100 ms each) are read
 * for their imports; any other package is one step.
 */
async function loadOrder(entry: string): Promise<string[]> {
  const imports = new Map<string, string[]>();
  const pending = [entry];
  for (let file = pending.pop(); file; file = pending.pop()) {
    if (imports.has(file) || !file.endsWith('.js')) continue;
    imports.set(file, []);
    const source = await readFile(file, 'utf8');
    if (isPackage(file) && !TSC_OUTPUT.test(source.slice(0, 2000))) continue;
    const found = importsOf(file, source);
    imports.set(file, found);
    pending.push(...found);
  }
  return completionOrder(entry, imports);
}

function importsOf(file: string, source: string): string[] {
  const resolveFrom = createRequire(file);
  const found: string[] = [];
  for (const [, specifier] of source.matchAll(TOP_LEVEL_REQUIRE)) {
    if (BUILTIN.has(specifier) || specifier.startsWith('node:')) continue;
    try {
      found.push(resolveFrom.resolve(specifier));
    } catch {
      // Left to the plain require, which reports it as it always has.
    }
  }
  return found;
}

const isPackage = (file: string) => file.includes(`${sep}node_modules${sep}`);

/**
 * Tarjan's strongly connected components, each emitted when the depth-first walk (imports in source
 * order, as a plain require runs them) completes it, by its first-visited module: the one a plain
 * require enters the import cycle by, so the cycle loads exactly as it would have. A module that
 * neither imports nor is imported by a cycle may complete before it instead of during it.
 */
function completionOrder(entry: string, imports: Map<string, string[]>): string[] {
  const order: string[] = [];
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of imports.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    stack.splice(stack.lastIndexOf(file)).forEach((member) => onStack.delete(member));
    order.push(file);
  };
  visit(entry);
  return order;
}
