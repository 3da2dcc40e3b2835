/**
 * A walk through the API with the typed client: log in (with a second factor when the account has
 * one), page through the units, create and complete an outage, create a content type and a record
 * in it, and tell an error by its `code`.
 *
 * Run it with a TypeScript runner (tsx, ts-node) and API_URL, API_CLIENT, API_IDENTIFIER and
 * API_PASSWORD set; its `main` is what the end-to-end test runs.
 */
import { createClient, type ApiClient, type Schemas } from './index';

export interface ExampleOptions {
  baseUrl: string;
  /** The client (company) identifier, sent as X-Client-ID. */
  clientId: string;
  identifier: string;
  password: string;
  /** Asked for a TOTP code when the account has two-factor authentication on. */
  twoFactorCode?: () => Promise<string> | string;
  /** Units per page while paging. */
  pageSize?: number;
}

export interface ExampleResult {
  loggedInAs: string;
  usedSecondFactor: boolean;
  unitNames: string[];
  pages: number;
  completedOutage: { id: number; status: string };
  completingAgain: string;
  collectionName: string;
  recordId: number;
}

type ErrorBody = Schemas['ErrorResponseDto'];

/** Throws with the API's error code and message, for answers the example does not expect. */
function fail(what: string, error: ErrorBody): never {
  throw new Error(`${what}: ${error.error.status} ${error.error.code} ${error.error.message}`);
}

async function logIn(
  options: ExampleOptions,
): Promise<{ api: ApiClient; email: string; secondFactor: boolean }> {
  const anonymous = createClient({ baseUrl: options.baseUrl, clientId: options.clientId });
  const { data, error } = await anonymous.POST('/auth/local', {
    body: { identifier: options.identifier, password: options.password },
  });
  if (error) fail('login', error);
  let answer: Schemas['LoginTokensDto'];
  let secondFactor = false;
  if ('requires2FA' in data) {
    // The password was right; the account wants its second factor before it hands out tokens.
    if (!options.twoFactorCode) throw new Error('this account has two-factor authentication on');
    const code = await options.twoFactorCode();
    const second = await anonymous.POST('/auth/2fa/authenticate', {
      body: { tempToken: data.tempToken, code },
    });
    if (second.error) fail('second factor', second.error);
    if ('requires2FA' in second.data) throw new Error('second factor asked again');
    answer = second.data;
    secondFactor = true;
  } else {
    answer = data;
  }
  const api = createClient({ baseUrl: options.baseUrl, clientId: options.clientId, token: answer.jwt });
  return { api, email: answer.user.email, secondFactor };
}

async function allUnits(api: ApiClient, pageSize: number): Promise<{ names: string[]; pages: number }> {
  const names: string[] = [];
  let page = 1;
  for (;;) {
    const { data, error } = await api.GET('/api/units', { params: { query: { page, pageSize } } });
    if (error) fail('units', error);
    // An item is typed "the unit or the fields asked for": without fields= every unit has its name.
    names.push(...data.data.flatMap((unit) => (unit.name === undefined ? [] : [unit.name])));
    if (page >= data.meta.pagination.pageCount) return { names, pages: page };
    page += 1;
  }
}

export async function main(options: ExampleOptions): Promise<ExampleResult> {
  const { api, email, secondFactor } = await logIn(options);
  const units = await allUnits(api, options.pageSize ?? 25);

  const outage = await api.POST('/api/outages', {
    body: { title: 'Boiler feed pump trip', outageType: 'FORCED', lostCapacityMw: 120 },
  });
  if (outage.error) fail('create outage', outage.error);
  const id = outage.data.data.id;
  const completed = await api.POST('/api/outages/{id}/complete', {
    params: { path: { id } },
    body: { completionNotes: 'Pump replaced' },
  });
  if (completed.error) fail('complete outage', completed.error);

  // A completed outage cannot be completed again: the API says why with a stable code.
  const again = await api.POST('/api/outages/{id}/complete', { params: { path: { id } }, body: {} });
  let completingAgain = 'accepted';
  if (again.error) {
    if (again.error.error.code !== 'INVALID_TRANSITION') fail('complete again', again.error);
    completingAgain = again.error.error.code;
  }

  const collectionName = `inspections${Date.now().toString(36)}`;
  const type = await api.POST('/api/cms/content-types', {
    body: {
      collectionName,
      attributes: {
        site: { type: 'string', required: true },
        passed: { type: 'boolean' },
      },
    },
  });
  if (type.error) fail('create content type', type.error);
  const record = await api.POST('/api/cms/{collectionName}', {
    params: { path: { collectionName } },
    body: { site: 'North yard', passed: true },
  });
  if (record.error) fail('create record', record.error);

  return {
    loggedInAs: email,
    usedSecondFactor: secondFactor,
    unitNames: units.names,
    pages: units.pages,
    completedOutage: { id: completed.data.data.id, status: completed.data.data.status },
    completingAgain,
    collectionName,
    recordId: record.data.data.id,
  };
}

if (require.main === module) {
  const need = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set`);
    return value;
  };
  main({
    baseUrl: need('API_URL'),
    clientId: need('API_CLIENT'),
    identifier: need('API_IDENTIFIER'),
    password: need('API_PASSWORD'),
  }).then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
