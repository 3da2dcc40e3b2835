import { until } from '../webhooks/receiver';
import { TestApp } from '../support/test-app';

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
