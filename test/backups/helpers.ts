import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import request from 'supertest';
import { TestApp } from '../support/test-app';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Platform administration calls as the SUPER_ADMIN. */
export const platform = (t: TestApp, root: string) => ({
  get: (path: string) => t.http().get(`/api/platform${path}`).set('Authorization', `Bearer ${root}`),
  post: (path: string) => t.http().post(`/api/platform${path}`).set('Authorization', `Bearer ${root}`),
  delete: (path: string) => t.http().delete(`/api/platform${path}`).set('Authorization', `Bearer ${root}`),
});

/** Polls GET `path` until `done(body)` holds; answers that body. */
export async function until(
  get: () => request.Test,
  done: (body: { data: Record<string, unknown> }) => boolean,
  timeoutMs = 60_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await get();
    if (res.status === 200 && done(res.body)) return res.body.data;
    if (Date.now() > deadline) throw new Error(`timed out: ${res.status} ${JSON.stringify(res.body)}`);
    await sleep(100);
  }
}

/** `pg_restore --list` of an archive: its table of contents, or throws. */
export function archiveContents(archive: Buffer): string {
  const path = join(tmpdir(), `archive-${process.pid}-${Date.now()}.dump`);
  writeFileSync(path, archive);
  const listed = spawnSync('pg_restore', ['--list', path], { encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`pg_restore --list: ${listed.stderr}`);
  return listed.stdout;
}

/** Reads a binary answer into a Buffer (supertest buffers only known types). */
export function binary(res: request.Response, callback: (err: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
}
