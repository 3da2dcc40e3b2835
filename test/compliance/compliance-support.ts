import { createUser, loginFull, RoleType } from '../identity/identity-helpers';
import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { Receiver, Received } from '../webhooks/receiver';

type Method = 'get' | 'post' | 'put' | 'delete';
export type Caller = 'admin' | 'manager' | 'operator' | 'viewer' | 'far';

/**
 * One app with client `acme`: its ADMIN, a MANAGER, OPERATOR and VIEWER of the admin's company, a
 * MANAGER of another company (`far`), and a system-wide webhook on `*` delivering to a local receiver.
 */
export interface ComplianceWorld {
  t: TestApp;
  acme: ProvisionedClient;
  receiver: Receiver;
  companyId: number;
  userIds: Record<Caller, number>;
  api: (who: Caller, method: Method, path: string) => ReturnType<ReturnType<TestApp['http']>['get']>;
  /** Events of `code` the receiver got for entity `id`, waiting for at least `count`. */
  events: (code: string, id: number, count?: number) => Promise<Received[]>;
  close: () => Promise<void>;
}

const ROLES: [Exclude<Caller, 'admin' | 'far'>, RoleType][] = [
  ['manager', 'MANAGER'],
  ['operator', 'OPERATOR'],
  ['viewer', 'VIEWER'],
];

export async function complianceWorld(): Promise<ComplianceWorld> {
  const sink = await new SmtpSink().start();
  const receiver = await new Receiver().start();
  const t = await bootApp({
    env: { SMTP_URL: sink.url, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', EVENT_RELAY_POLL_MS: '200' },
  });
  const acme = await provisionClient(t, sink, 'acme');
  const tokens: Partial<Record<Caller, string>> = { admin: acme.adminToken };
  const userIds: Partial<Record<Caller, number>> = {};
  const call = (token: string, method: Method, path: string) =>
    t
      .http()
      [method](path)
      .set({ 'X-Client-ID': 'acme', Authorization: `Bearer ${token}` });

  const probe = await call(acme.adminToken, 'post', '/api/units').send({ name: 'Probe' }).expect(201);
  const companyId: number = probe.body.data.companyId;
  userIds.admin = (await loginFull(t, acme.adminEmail, acme.adminPassword, 'acme')).body.user.id;
  for (const [who, role] of ROLES) {
    const user = { email: `${who}@acme.test`, password: `${who}-Password-1`, role, companyId };
    userIds[who] = await createUser(t, acme.adminToken, user, 'acme');
    tokens[who] = (await loginFull(t, user.email, user.password, 'acme')).body.jwt;
  }
  const far = await call(acme.adminToken, 'post', '/api/admin/companies').send({ name: 'Elsewhere' });
  const farUser = { email: 'far@acme.test', password: 'Far-password-1', role: 'MANAGER' as const };
  userIds.far = await createUser(t, acme.adminToken, { ...farUser, companyId: far.body.data.id }, 'acme');
  tokens.far = (await loginFull(t, farUser.email, farUser.password, 'acme')).body.jwt;

  await call(acme.adminToken, 'post', '/api/admin/webhooks')
    .send({ name: 'Everything', url: receiver.url('/hook'), events: ['*'] })
    .expect(201);

  const events = async (code: string, id: number, count = 1) => {
    const deadline = Date.now() + 15000;
    for (;;) {
      const got = receiver.at('/hook').filter((r) => r.body?.event === code && r.body?.data?.id === id);
      if (got.length >= count || Date.now() > deadline) return got;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return {
    t,
    acme,
    receiver,
    companyId,
    userIds: userIds as Record<Caller, number>,
    api: (who, method, path) => call(tokens[who]!, method, path),
    events,
    close: async () => {
      await t.close();
      await receiver.stop();
      await sink.stop();
    },
  };
}

/** The fields a 400 VALIDATION_ERROR names. */
export const fieldsOf = (res: { body: { error?: { details?: { field: string }[] } } }) =>
  (res.body.error?.details ?? []).map((d) => d.field);
