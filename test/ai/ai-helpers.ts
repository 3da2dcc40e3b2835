import { Client } from 'pg';
import { databaseUrl } from '../support/test-env';
import { TestApp } from '../support/test-app';
import { FakeVendor } from '../support/fake-ai-vendor';

/** Settings pointing the five providers at the fake vendor. */
export function vendorEnv(fake: FakeVendor): Record<string, string> {
  return {
    OPENAI_API_KEY: 'sk-openai-test',
    OPENAI_BASE_URL: `${fake.root}/v1`,
    ANTHROPIC_API_KEY: 'sk-anthropic-test',
    ANTHROPIC_BASE_URL: fake.root,
    GEMINI_API_KEY: 'gemini-test-key',
    GEMINI_BASE_URL: fake.root,
    AZURE_OPENAI_ENDPOINT: fake.root,
    AZURE_OPENAI_API_KEY: 'azure-test-key',
    AZURE_OPENAI_DEPLOYMENT: 'chat-deployment',
    AZURE_OPENAI_API_VERSION: '2024-10-21',
    OLLAMA_BASE_URL: fake.root,
  };
}

export interface SseEvent {
  event: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- event payloads are read as sent
  data: any;
}

/** Splits a text/event-stream body into its events. */
export function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
      const data = lines.find((l) => l.startsWith('data: '))?.slice(6) ?? 'null';
      return { event, data: JSON.parse(data) };
    });
}

/** Rows of the client's exchange log, as PostgreSQL holds them. */
export async function exchangeRows(t: TestApp, client: string): Promise<Record<string, unknown>[]> {
  const pg = new Client({ connectionString: databaseUrl(`${t.masterDatabase}_${client}`) });
  await pg.connect();
  try {
    return (await pg.query(`SELECT *, cost::float8 AS cost FROM ai_exchanges ORDER BY occurred_at`)).rows;
  } finally {
    await pg.end();
  }
}

/** Waits until the log holds `count` exchanges (they are written by the queue worker). */
export async function waitForExchanges(t: TestApp, client: string, count: number, timeoutMs = 15000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await exchangeRows(t, client);
    if (rows.length >= count) return rows;
    if (Date.now() > deadline) throw new Error(`log holds ${rows.length} exchanges, expected ${count}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** percentile_cont: linear interpolation between the closest ranks. */
export function percentileCont(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = p * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}
