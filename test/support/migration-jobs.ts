import { TestApp } from './test-app';

/** Starts a migration job (`POST path`, 202) and polls it until finished; answers the job's view. */
export async function runMigrationJob(t: TestApp, token: string, path: string, timeoutMs = 30_000) {
  const started = await t.http().post(path).set('Authorization', `Bearer ${token}`);
  if (started.status !== 202) throw new Error(`${path}: ${started.status} ${JSON.stringify(started.body)}`);
  return waitForJob(t, token, started.body.data.jobId as string, timeoutMs);
}

export async function waitForJob(t: TestApp, token: string, jobId: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await t
      .http()
      .get(`/api/platform/migrations/${jobId}`)
      .set('Authorization', `Bearer ${token}`);
    if (res.status !== 200) throw new Error(`job ${jobId}: ${res.status} ${JSON.stringify(res.body)}`);
    if (res.body.data.status === 'finished') return res.body.data;
    if (Date.now() > deadline) throw new Error(`job ${jobId} not finished: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
