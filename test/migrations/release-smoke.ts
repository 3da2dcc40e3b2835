import { createClient, type ApiClient } from '../../clients/typescript';

/** One call of the smoke: the route as the OpenAPI document names it, and what the server answered. */
export interface SmokeStep {
  method: 'get' | 'post' | 'put';
  path: string;
  status: number;
}

export interface SmokeOptions {
  baseUrl: string;
  clientId: string;
  identifier: string;
  password: string;
  receiverUrl: string;
}

/** A webhook's settings at their defaults (the generated types ask for every field that has one). */
const WEBHOOK = {
  customHeaders: {},
  httpMethod: 'POST',
  contentType: 'application/json',
  timeoutMs: 30000,
  maxRetries: 3,
  verifySsl: true,
  autoDisableAfterFailures: 10,
} as const;

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * Signs in, then lists, creates and updates each kind of record (units, work orders, failures,
 * outages, permits, compliance obligations, a custom table and one of its records, a webhook) through
 * the generated client. Every step must answer 2xx; the first that does not throws with its answer.
 * Returns the steps in order, so a caller can check each route against another release's document.
 */
export async function releaseSmoke(options: SmokeOptions): Promise<SmokeStep[]> {
  const steps: SmokeStep[] = [];
  const call = async <T>(method: SmokeStep['method'], path: string, sent: Promise<Answer<T>>) => {
    const { data, error, response } = await sent;
    steps.push({ method, path, status: response.status });
    if (!response.ok || data === undefined) {
      throw new Error(
        `${method.toUpperCase()} ${path} answered ${response.status}: ${JSON.stringify(error)}`,
      );
    }
    return data;
  };

  const anonymous = createClient({ baseUrl: options.baseUrl, clientId: options.clientId });
  const login = await call(
    'post',
    '/auth/local',
    anonymous.POST('/auth/local', { body: { identifier: options.identifier, password: options.password } }),
  );
  if ('requires2FA' in login) throw new Error('the smoke account has two-factor authentication on');
  const api: ApiClient = createClient({
    baseUrl: options.baseUrl,
    clientId: options.clientId,
    token: login.jwt,
  });
  const id = (n: number) => ({ params: { path: { id: n } } });

  await call('get', '/api/units', api.GET('/api/units', {}));
  const unit = (
    await call(
      'post',
      '/api/units',
      api.POST('/api/units', { body: { name: 'N-1 unit', capacityMw: 50, status: 'OPERATIONAL' } }),
    )
  ).data;
  await call(
    'put',
    '/api/units/{id}',
    api.PUT('/api/units/{id}', { ...id(unit.id), body: { capacityMw: 55, status: 'MAINTENANCE' } }),
  );
  await call('get', '/api/units/{id}', api.GET('/api/units/{id}', id(unit.id)));

  await call('get', '/api/work-orders', api.GET('/api/work-orders', {}));
  const order = (
    await call(
      'post',
      '/api/work-orders',
      api.POST('/api/work-orders', {
        body: { title: 'Inspect feed pump', unitId: unit.id, status: 'OPEN', priority: 'HIGH' },
      }),
    )
  ).data;
  await call(
    'put',
    '/api/work-orders/{id}',
    api.PUT('/api/work-orders/{id}', { ...id(order.id), body: { status: 'IN_PROGRESS', priority: 'HIGH' } }),
  );

  await call('get', '/api/failures', api.GET('/api/failures', {}));
  const failure = (
    await call(
      'post',
      '/api/failures',
      api.POST('/api/failures', {
        body: {
          title: 'Bearing noise',
          unitId: unit.id,
          workOrderId: order.id,
          severity: 'HIGH',
          status: 'OPEN',
        },
      }),
    )
  ).data;
  await call(
    'put',
    '/api/failures/{id}',
    api.PUT('/api/failures/{id}', {
      ...id(failure.id),
      body: { description: 'Bearing replaced', severity: 'HIGH', status: 'RESOLVED' },
    }),
  );

  await call('get', '/api/outages', api.GET('/api/outages', {}));
  const outage = (
    await call(
      'post',
      '/api/outages',
      api.POST('/api/outages', {
        body: { title: 'Feed pump trip', outageType: 'FORCED', unitId: unit.id, lostCapacityMw: 20 },
      }),
    )
  ).data;
  await call(
    'put',
    '/api/outages/{id}',
    api.PUT('/api/outages/{id}', { ...id(outage.id), body: { rootCause: 'Wear' } }),
  );
  await call(
    'post',
    '/api/outages/{id}/complete',
    api.POST('/api/outages/{id}/complete', { ...id(outage.id), body: { completionNotes: 'Pump replaced' } }),
  );

  await call('get', '/api/permits', api.GET('/api/permits', {}));
  const permit = (
    await call(
      'post',
      '/api/permits',
      api.POST('/api/permits', {
        body: { permitNumber: 'N1-AIR-1', title: 'Stack emissions', permitType: 'AIR', status: 'ACTIVE' },
      }),
    )
  ).data;
  await call(
    'put',
    '/api/permits/{id}',
    api.PUT('/api/permits/{id}', { ...id(permit.id), body: { notes: 'Renewed', status: 'ACTIVE' } }),
  );

  await call('get', '/api/compliance-obligations', api.GET('/api/compliance-obligations', {}));
  const obligation = (
    await call(
      'post',
      '/api/compliance-obligations',
      api.POST('/api/compliance-obligations', {
        body: {
          permitId: permit.id,
          title: 'Annual report',
          obligationType: 'REPORTING',
          frequency: 'ONE_TIME',
          status: 'ACTIVE',
        },
      }),
    )
  ).data;
  await call(
    'put',
    '/api/compliance-obligations/{id}',
    api.PUT('/api/compliance-obligations/{id}', {
      ...id(obligation.id),
      body: { notes: 'Drafted', status: 'ACTIVE' },
    }),
  );

  const collectionName = 'n1inspections';
  await call('get', '/api/cms/content-types', api.GET('/api/cms/content-types', {}));
  await call(
    'post',
    '/api/cms/content-types',
    api.POST('/api/cms/content-types', {
      body: {
        collectionName,
        attributes: { site: { type: 'string', required: true }, passed: { type: 'boolean' } },
      },
    }),
  );
  const inCollection = { params: { path: { collectionName } } };
  const record = (
    await call(
      'post',
      '/api/cms/{collectionName}',
      api.POST('/api/cms/{collectionName}', { ...inCollection, body: { site: 'North yard', passed: false } }),
    )
  ).data;
  await call('get', '/api/cms/{collectionName}', api.GET('/api/cms/{collectionName}', inCollection));
  await call(
    'put',
    '/api/cms/{collectionName}/{id}',
    api.PUT('/api/cms/{collectionName}/{id}', {
      params: { path: { collectionName, id: record.id } },
      body: { passed: true },
    }),
  );

  const webhook = (
    await call(
      'post',
      '/api/admin/webhooks',
      api.POST('/api/admin/webhooks', {
        body: { name: 'N-1 hook', url: options.receiverUrl, ...WEBHOOK, events: ['unit.created'] },
      }),
    )
  ).data;
  await call(
    'put',
    '/api/admin/webhooks/{id}',
    api.PUT('/api/admin/webhooks/{id}', {
      ...id(webhook.id),
      body: { ...WEBHOOK, events: ['unit.created', 'unit.updated'] },
    }),
  );
  await call(
    'get',
    '/api/admin/webhooks/company/{id}',
    api.GET('/api/admin/webhooks/company/{id}', id(unit.companyId!)),
  );
  return steps;
}

export interface PlatformSmokeOptions {
  baseUrl: string;
  email: string;
  password: string;
  /** Identifier of a client the smoke creates and provisions. */
  newClient: string;
}

export interface PlatformSmokeResult {
  steps: SmokeStep[];
  /** The migrate-all job's counts once it finished. */
  job: Record<string, number>;
  pendingBefore: number;
  newClientId: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Platform administration as an operator uses it during a rollout: the client and database server
 * lists, the migration status, a migrate-all job followed to its end, and a new client provisioned.
 */
export async function platformSmoke(options: PlatformSmokeOptions): Promise<PlatformSmokeResult> {
  const steps: SmokeStep[] = [];
  const call = async <T>(method: SmokeStep['method'], path: string, sent: Promise<Answer<T>>) => {
    const { data, error, response } = await sent;
    steps.push({ method, path, status: response.status });
    if (!response.ok || data === undefined) {
      throw new Error(
        `${method.toUpperCase()} ${path} answered ${response.status}: ${JSON.stringify(error)}`,
      );
    }
    return data;
  };
  const anonymous = createClient({ baseUrl: options.baseUrl });
  const login = await call(
    'post',
    '/auth/local',
    anonymous.POST('/auth/local', { body: { identifier: options.email, password: options.password } }),
  );
  if ('requires2FA' in login) throw new Error('the platform account has two-factor authentication on');
  const api = createClient({ baseUrl: options.baseUrl, token: login.jwt });

  await call('get', '/api/platform/clients', api.GET('/api/platform/clients', {}));
  await call('get', '/api/platform/database-servers', api.GET('/api/platform/database-servers', {}));
  const status = await call(
    'get',
    '/api/platform/clients/migration-status',
    api.GET('/api/platform/clients/migration-status', {}),
  );
  const started = await call(
    'post',
    '/api/platform/clients/migrate',
    api.POST('/api/platform/clients/migrate', {}),
  );
  const jobId = started.data.jobId;
  let job = await call(
    'get',
    '/api/platform/migrations/{jobId}',
    api.GET('/api/platform/migrations/{jobId}', { params: { path: { jobId } } }),
  );
  for (let tries = 0; job.data.status !== 'finished' && tries < 150; tries++) {
    await sleep(200);
    job = await call(
      'get',
      '/api/platform/migrations/{jobId}',
      api.GET('/api/platform/migrations/{jobId}', { params: { path: { jobId } } }),
    );
  }

  const created = await call(
    'post',
    '/api/platform/clients',
    api.POST('/api/platform/clients', {
      body: {
        identifier: options.newClient,
        name: `${options.newClient} Energy`,
        contactEmail: `admin@${options.newClient}.test`,
        maxUsers: 50,
        maxSandboxes: 3,
      },
    }),
  );
  const id = { params: { path: { id: created.data.id } } };
  await call(
    'post',
    '/api/platform/clients/{id}/provision',
    api.POST('/api/platform/clients/{id}/provision', id),
  );
  let client = await call('get', '/api/platform/clients/{id}', api.GET('/api/platform/clients/{id}', id));
  for (let tries = 0; client.data.status !== 'ACTIVE' && tries < 150; tries++) {
    await sleep(200);
    client = await call('get', '/api/platform/clients/{id}', api.GET('/api/platform/clients/{id}', id));
  }
  if (client.data.status !== 'ACTIVE')
    throw new Error(`client ${options.newClient} not ACTIVE: ${client.data.status}`);
  return {
    steps,
    job: { ...job.data.counts, finished: job.data.status === 'finished' ? 1 : 0 },
    pendingBefore: status.clientsWithPendingMigrations,
    newClientId: created.data.id,
  };
}
