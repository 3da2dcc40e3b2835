import { until } from '../webhooks/receiver';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, TestApp } from '../support/test-app';

export const as = (token: string, client: string) => ({
  'X-Client-ID': client,
  Authorization: `Bearer ${token}`,
});

/** Uploads files (name → content) to a company; answers the supertest response. */
export function upload(
  t: TestApp,
  headers: Record<string, string>,
  companyId: number,
  files: [string, Buffer][],
  path = '',
  query: Record<string, string> = {},
) {
  const req = t.http().post(`/api/upload/company/${companyId}${path}`).set(headers).query(query);
  // filepath keeps the name as given (form-data would otherwise send only its last segment).
  for (const [name, content] of files) req.attach('files', content, { filepath: name } as never);
  return req;
}

/** The document of a file once its status is one of `statuses`. */
export async function documentOf(
  t: TestApp,
  headers: Record<string, string>,
  fileId: number,
  statuses = ['COMPLETED', 'FAILED', 'SKIPPED'],
  timeoutMs = 60_000,
) {
  const res = await until(
    () => t.http().get(`/search/documents/${fileId}`).set(headers).query({ includeFullText: true }),
    (r) => r.status === 200 && statuses.includes(r.body.status),
    timeoutMs,
  );
  return res.body as Record<string, unknown> & {
    status: string;
    extractedText: string;
    errorMessage: string | null;
  };
}

/** An app with OCR on and a quick outbox relay, with the mail sink that provisioning needs. */
export async function bootOcrApp(env: Record<string, string> = {}) {
  const sink = await new SmtpSink().start();
  const t = await bootApp({
    env: { SMTP_URL: sink.url, OCR_ENABLED: 'true', EVENT_RELAY_POLL_MS: '200', ...env },
  });
  const close = async () => {
    await t.close();
    await sink.stop();
  };
  return { sink, t, close };
}

/** Turns OCR on for the first company of the caller's client; answers that company's id. */
export async function enableOcr(t: TestApp, headers: Record<string, string>): Promise<number> {
  const companies = await t.http().get('/api/admin/companies').set(headers).expect(200);
  const companyId = Math.min(...companies.body.data.map((c: { id: number }) => c.id));
  await t.http().post(`/api/companies/${companyId}/ocr-config/enable`).set(headers).expect(200);
  return companyId;
}
