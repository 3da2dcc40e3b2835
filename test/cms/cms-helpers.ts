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
