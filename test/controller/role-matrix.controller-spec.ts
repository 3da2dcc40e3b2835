import { DEFAULT_PERMISSIONS, Permission } from '../../src/access/permissions';
import { ROLE_RANK, ROLE_TYPES, RoleType } from '../../src/access/roles';
import {
  bootControllerApp,
  ControllerApp,
  FakeCredential,
  PASSED_GUARD_HEADER,
  PROBE_HEADER,
  PROBE_STATUS,
  registeredRoutes,
} from '../support/controller-app';
import { ROUTE_TABLE, RouteRule } from './route-table';

/** A caller of the matrix; `limited` callers are API tokens built from the route's own rule. */
interface Caller {
  name: string;
  credential?: (rule: RouteRule) => FakeCredential;
}

const permissionsOf = (rule: RouteRule): Permission[] => ('permissions' in rule && rule.permissions) || [];
/** A permission the route does not ask for, held by every role that can hold permissions. */
const unrelated = (rule: RouteRule): Permission =>
  permissionsOf(rule).includes('units:read') ? 'companies:read' : 'units:read';

const CALLERS: Caller[] = [
  { name: 'no credential' },
  ...ROLE_TYPES.map((role) => ({ name: `${role} (JWT)`, credential: () => ({ role }) })),
  { name: 'full-access API token of an ADMIN', credential: () => ({ role: 'ADMIN', via: 'api_token' }) },
  {
    name: "SUPER_ADMIN's API token limited to the route's permissions",
    credential: (rule) => ({ role: 'SUPER_ADMIN', limitedTo: permissionsOf(rule) }),
  },
  {
    name: "MANAGER's API token limited to another permission",
    credential: (rule) => ({ role: 'MANAGER', limitedTo: [unrelated(rule)] }),
  },
];

/** The documented contract, computed from the table row alone. */
function expected(rule: RouteRule, credential: FakeCredential | undefined, onMaster: boolean): number {
  if ('public' in rule) return PROBE_STATUS;
  if (!credential) return 401;
  if ('signedIn' in rule) return PROBE_STATUS;
  const { role, limitedTo } = credential;
  if (rule.platform && !onMaster) return 403;
  if (rule.minRole && ROLE_RANK[role] < ROLE_RANK[rule.minRole]) return 403;
  // A limited token never carries its creator's role: a rule granted by role alone refuses it.
  if (rule.minRole && limitedTo && !rule.permissions?.length) return 403;
  const bypass = role === 'SUPER_ADMIN' && !limitedTo && (credential.via ?? 'jwt') === 'jwt';
  const held = new Set<string>(
    limitedTo
      ? limitedTo.filter((p) => role === 'SUPER_ADMIN' || DEFAULT_PERMISSIONS[role].includes(p))
      : DEFAULT_PERMISSIONS[role],
  );
  const granted = bypass || (rule.permissions ?? []).every((p) => held.has(p));
  return granted ? PROBE_STATUS : 403;
}

const concrete = (path: string) => path.replace(/:[A-Za-z]+/g, '1');
const describeStatus = (status: number) =>
  status === PROBE_STATUS ? 'allowed' : status === 401 ? '401' : status === 403 ? '403' : String(status);

describe('controller tier: the role matrix of every route', () => {
  let t: ControllerApp;

  beforeAll(async () => {
    t = await bootControllerApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function call(route: string, headers: Record<string, string>) {
    const [method, path] = route.split(' ');
    const res = await fetch(`${t.url}${concrete(path)}`, {
      method,
      headers: { [PROBE_HEADER]: '1', 'content-type': 'application/json', ...headers },
      body: method === 'GET' ? undefined : '{}',
    });
    await res.arrayBuffer();
    return res;
  }

  it('the table names exactly the routes the application registers', () => {
    const registered = new Set(registeredRoutes(t.app));
    const documented = new Set(Object.keys(ROUTE_TABLE));
    const missing = [...registered].filter((r) => !documented.has(r));
    const stale = [...documented].filter((r) => !registered.has(r));
    expect({
      'registered but not in test/controller/route-table.ts': missing,
      'in the table but not registered': stale,
    }).toEqual({
      'registered but not in test/controller/route-table.ts': [],
      'in the table but not registered': [],
    });
  });

  it.each(Object.entries(ROUTE_TABLE))('%s', async (route, rule) => {
    const onMaster = 'platform' in rule && !!rule.platform;
    const tenant = { 'x-client-id': onMaster ? 'master' : 'acme' };
    const outcomes = await Promise.all(
      CALLERS.map(async (caller) => {
        const credential = caller.credential?.(rule);
        const headers = credential ? { ...tenant, authorization: t.bearer(credential) } : tenant;
        const res = await call(route, headers);
        const passed = res.headers.get(PASSED_GUARD_HEADER) === '1';
        return {
          caller: caller.name,
          got:
            describeStatus(res.status) + (passed === (res.status === PROBE_STATUS) ? '' : ' (guard header?)'),
          want: describeStatus(expected(rule, credential, onMaster)),
        };
      }),
    );
    expect(outcomes.map(({ caller, got }) => `${caller}: ${got}`)).toEqual(
      outcomes.map(({ caller, want }) => `${caller}: ${want}`),
    );
  });

  it('platform administration is refused on a client database, even to a SUPER_ADMIN', async () => {
    const platform = Object.entries(ROUTE_TABLE).filter(([, rule]) => 'platform' in rule && rule.platform);
    expect(platform.length).toBeGreaterThan(0);
    const superAdmin = t.bearer({ role: 'SUPER_ADMIN' });
    for (const [route] of platform) {
      const res = await call(route, { 'x-client-id': 'acme', authorization: superAdmin });
      expect(`${route}: ${res.status}`).toBe(`${route}: 403`);
    }
  });

  it('a sandbox answers only to those given access to it', async () => {
    const admin = t.bearer({ role: 'ADMIN' });
    const headers = { 'x-client-id': 'acme', 'x-tenant-id': 'sandbox_trial', authorization: admin };
    expect((await call('GET /api/units', headers)).status).toBe(403);
    t.sandboxes.open.add('sandbox_trial');
    try {
      expect((await call('GET /api/units', headers)).status).toBe(PROBE_STATUS);
    } finally {
      t.sandboxes.open.delete('sandbox_trial');
    }
  });

  it('an unknown credential is a 401 on a guarded route and ignored on a public one', async () => {
    const headers = { 'x-client-id': 'acme', authorization: 'Bearer not-a-registered-token' };
    expect((await call('GET /api/units', headers)).status).toBe(401);
    expect((await call('POST /auth/local', headers)).status).toBe(PROBE_STATUS);
  });

  it('a records route of a custom table also passes with the permission of its one type', async () => {
    const only = t.bearer({ role: 'SUPER_ADMIN', limitedTo: ['cms.sites:read', 'cms.sites:publish'] });
    const headers = { 'x-client-id': 'acme', authorization: only };
    const answers = async (routes: string[]) =>
      Promise.all(
        routes.map(async (route) => `${route}: ${describeStatus((await call(route, headers)).status)}`),
      );
    const allowed = [
      'GET /api/cms/sites',
      'GET /api/cms/sites/1',
      'GET /api/cms/sites/count',
      'POST /api/cms/sites/search',
      'POST /api/cms/sites/1/publish',
    ];
    const refused = [
      'GET /api/cms/tags',
      'GET /api/cms/sites_archive',
      'POST /api/cms/sites',
      'PUT /api/cms/sites/1',
      'DELETE /api/cms/sites/1',
      'GET /api/units',
      'GET /api/cms/content-types',
    ];
    expect(await answers(allowed)).toEqual(allowed.map((r) => `${r}: allowed`));
    expect(await answers(refused)).toEqual(refused.map((r) => `${r}: 403`));
  });

  it('every role is in the matrix', () => {
    const roles: RoleType[] = ['SUPER_ADMIN', 'ADMIN', 'MANAGER', 'OPERATOR', 'VIEWER'];
    expect([...ROLE_TYPES]).toEqual(roles);
  });
});
