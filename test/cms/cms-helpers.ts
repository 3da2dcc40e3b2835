import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';

export type Method = 'get' | 'post' | 'put' | 'delete';

/** A booted app with one provisioned client and a request helper as its ADMIN. */
export interface CmsFixture {
  t: TestApp;
  sink: SmtpSink;
  acme: ProvisionedClient;
  admin: (method: Method, path: string, schema?: string) => ReturnType<ReturnType<TestApp['http']>['get']>;
  close: () => Promise<void>;
}

export async function cmsFixture(identifier = 'acme', env: Record<string, string> = {}): Promise<CmsFixture> {
  const sink = await new SmtpSink().start();
  const t = await bootApp({ env: { SMTP_URL: sink.url, ...env } });
  const acme = await provisionClient(t, sink, identifier);
  const admin = (method: Method, path: string, schema?: string) => {
    const req = t
      .http()
      [method](path)
      .set({ 'X-Client-ID': identifier, Authorization: `Bearer ${acme.adminToken}` });
    return schema ? req.set('X-Tenant-ID', schema) : req;
  };
  return {
    t,
    sink,
    acme,
    admin,
    close: async () => {
      await t.close();
      await sink.stop();
    },
  };
}

/** Field names of a 400's details. */
export const fieldsOf = (res: { body: { error?: { details?: { field: string }[] } } }) =>
  (res.body.error?.details ?? []).map((d) => d.field);

/**
 * The ids the pages by number of a list or search answer, page after page of `pageSize` until one
 * comes back short (the last page, or the empty one past it), with the total each page counted.
 */
export async function idsByPages(
  read: (page: number) => PromiseLike<{
    status: number;
    body: { data: { id: number }[]; meta: { pagination: { total: number } } };
  }>,
  pageSize: number,
): Promise<{ ids: number[]; totals: number[] }> {
  const ids: number[] = [];
  const totals: number[] = [];
  for (let page = 1; page < 1000; page++) {
    const res = await read(page);
    expect(res.status).toBe(200);
    ids.push(...res.body.data.map((r) => r.id));
    totals.push(res.body.meta.pagination.total);
    if (res.body.data.length < pageSize) break;
  }
  return { ids, totals };
}

/**
 * The ids of a custom table in the order lists promise: by `column` in `order`, rows without a value
 * last, ties (and the rows without a value) by id in the same direction.
 */
export function listOrderSql(table: string, column: string, order: 'ASC' | 'DESC', where = 'TRUE'): string {
  return `SELECT id::int AS id FROM ${table} WHERE ${where}
    ORDER BY ${column} IS NULL, ${column} ${order}, id ${order}`;
}
