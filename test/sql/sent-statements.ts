import { AsyncLocalStorage } from 'node:async_hooks';
import { Client } from 'pg';

/** A statement as the pg driver was handed it: its text and its parameters, if any. */
export interface SentStatement {
  text: string;
  values: unknown[];
}

const capture = new AsyncLocalStorage<SentStatement[]>();
let patched = false;

/** Records every statement sent inside `capture.run`, whatever sends it (TypeORM, pg). */
function patchDriver() {
  if (patched) return;
  patched = true;
  const send = Client.prototype.query as (...args: unknown[]) => unknown;
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    const statements = capture.getStore();
    const first = args[0] as string | { text?: string; values?: unknown[] } | undefined;
    const text = typeof first === 'string' ? first : first?.text;
    const values = (typeof first === 'string' ? args[1] : first?.values) as unknown[] | undefined;
    if (statements && text) statements.push({ text, values: Array.isArray(values) ? values : [] });
    return send.apply(this, args);
  } as typeof Client.prototype.query;
}

/** Runs `work`, appending to `statements` every statement it sends through the pg driver. */
export function recordStatements<T>(statements: SentStatement[], work: () => Promise<T>): Promise<T> {
  patchDriver();
  return capture.run(statements, work);
}

/** Statement text as sent, with its indentation removed so the file reads as SQL. */
export function tidy(statement: string): string {
  const lines = statement.split('\n').map((line) => line.trimEnd());
  while (lines.length && !lines[0].trim()) lines.shift();
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  const indents = lines
    .slice(1)
    .filter((l) => l.trim())
    .map((l) => l.length - l.trimStart().length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return [lines[0].trim(), ...lines.slice(1).map((l) => l.slice(cut))].join('\n');
}
