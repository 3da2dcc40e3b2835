import {
  CallHandler,
  DynamicModule,
  ExecutionContext,
  ForwardReference,
  INestApplication,
  Injectable,
  Logger,
  NestInterceptor,
  Type,
} from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import type { NextFunction, Request, Response } from 'express';
import type { Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Observable } from 'rxjs';
import { AppModule } from '../../src/app.module';
import { AuthGuard } from '../../src/identity/auth/auth.guard';
import { Authenticator } from '../../src/identity/auth/authenticator.service';
import { DEFAULT_PERMISSIONS, normalizePermission, Permission } from '../../src/access/permissions';
import { Principal } from '../../src/access/principal';
import { ROLE_RANK, RoleType } from '../../src/access/roles';
import { SandboxAccess } from '../../src/identity/auth/sandbox-access.service';
import { AllExceptionsFilter } from '../../src/common/errors/all-exceptions.filter';
import { AppError } from '../../src/common/errors/app-error';
import { createValidationPipe } from '../../src/common/validation/validation.pipe';
import { ConfigModule } from '../../src/config/config.module';
import { loadSettings } from '../../src/config/load-settings';
import {
  MASTER_CLIENT,
  PRODUCTION_SCHEMA,
  TenantClient,
  tenantContext,
} from '../../src/tenancy/tenant-context';

/**
 * The controller tier: the application's real controllers behind the real global guard, validation
 * pipe and exception filter, with everything below the controllers replaced by inert stubs. No
 * PostgreSQL, no Redis: a request that passes the guard and the pipes reaches a controller whose
 * services answer `undefined`.
 */

/** Settings the stubbed module reads (defaults of every setting, test mode). */
export const CONTROLLER_TIER_ENV: NodeJS.ProcessEnv = { NODE_ENV: 'test' };

/** Answer of a request sent with PROBE_HEADER once the guard let it through (no pipe, no handler ran). */
export const PROBE_STATUS = 418;
export const PROBE_HEADER = 'x-controller-tier-probe';
/** Set on every response whose request passed the guard. */
export const PASSED_GUARD_HEADER = 'x-controller-tier-passed-guard';

/** Every controller the application registers, found by walking AppModule's imports. */
export function appControllers(env: NodeJS.ProcessEnv = CONTROLLER_TIER_ENV): Type[] {
  const seen = new Set<unknown>();
  const controllers = new Set<Type>();
  const visit = (entry: Type | DynamicModule | ForwardReference | undefined) => {
    if (!entry || seen.has(entry)) return;
    seen.add(entry);
    if ('forwardRef' in entry) return visit(entry.forwardRef());
    const dynamic = 'module' in entry ? entry : undefined;
    const moduleClass = dynamic ? dynamic.module : (entry as Type);
    for (const c of [
      ...((Reflect.getMetadata('controllers', moduleClass) as Type[] | undefined) ?? []),
      ...(dynamic?.controllers ?? []),
    ]) {
      controllers.add(c);
    }
    for (const child of [
      ...((Reflect.getMetadata('imports', moduleClass) as Type[] | undefined) ?? []),
      ...((dynamic?.imports as Type[] | undefined) ?? []),
    ]) {
      visit(child);
    }
  };
  visit(AppModule.forRoot(env));
  return [...controllers];
}

/** An object whose every method returns undefined: what every service below a controller becomes. */
function inertStub(token: unknown): unknown {
  const methods = new Map<string | symbol, () => undefined>();
  return new Proxy(
    {},
    {
      get(_, property) {
        // Not a thenable, and no symbol protocols: Nest must not mistake the stub for a promise.
        if (property === 'then' || typeof property === 'symbol') return undefined;
        if (property === 'toString') return () => `[stub ${String((token as Type)?.name ?? token)}]`;
        if (!methods.has(property)) methods.set(property, () => undefined);
        return methods.get(property);
      },
    },
  );
}

/** Marks requests that passed the guard and, for probes, stops them before pipes and handler. */
@Injectable()
class GuardProbe implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    http.getResponse<Response>().setHeader(PASSED_GUARD_HEADER, '1');
    if (http.getRequest<Request>().headers[PROBE_HEADER]) {
      throw new AppError(PROBE_STATUS, 'GUARD_PASSED', 'The guard let this request through');
    }
    return next.handle();
  }
}

export interface FakeCredential {
  role: RoleType;
  via?: 'jwt' | 'api_token';
  /** For a limited API token: its listed permissions (kept only where the creator holds them). */
  limitedTo?: Permission[];
  companyId?: number | null;
}

/** Turns a credential registered by the test into its principal; anything else is a 401. */
class FakeAuthenticator {
  readonly credentials = new Map<string, Principal>();

  async authenticate(authorization: string | undefined): Promise<Principal> {
    const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
    if (!match) throw AppError.unauthorized('No token supplied', 'UNAUTHORIZED');
    const principal = this.credentials.get(match[1]);
    if (!principal) throw AppError.unauthorized('Invalid token', 'INVALID_TOKEN');
    return principal;
  }
}

/** Sandbox access the test grants: schema names allowed to every principal. */
class FakeSandboxAccess {
  readonly open = new Set<string>();

  async allowed(_principal: Principal, schema: string): Promise<boolean> {
    return this.open.has(schema);
  }
}

export interface ControllerApp {
  app: INestApplication;
  url: string;
  sandboxes: FakeSandboxAccess;
  /** A bearer header value that the fake authenticator turns into the described principal. */
  bearer(credential: FakeCredential): string;
  close(): Promise<void>;
}

/** The principal a user of this role (or an API token of such a user) would have by default. */
export function principalFor(credential: FakeCredential, userId = ROLE_RANK[credential.role]): Principal {
  const own = new Set<string>(DEFAULT_PERMISSIONS[credential.role]);
  const via = credential.limitedTo ? 'api_token' : (credential.via ?? 'jwt');
  const permissions = credential.limitedTo
    ? new Set(
        credential.limitedTo
          .map((p) => normalizePermission(p))
          .filter((p): p is Permission => p !== null && (credential.role === 'SUPER_ADMIN' || own.has(p))),
      )
    : own;
  return {
    userId,
    email: `${credential.role.toLowerCase()}@controller.test`,
    username: credential.role.toLowerCase(),
    roleId: ROLE_RANK[credential.role],
    role: credential.role,
    companyId: credential.companyId === undefined ? 1 : credential.companyId,
    permissions,
    via,
    ...(via === 'api_token' ? { apiTokenId: 1, restricted: !!credential.limitedTo } : {}),
  };
}

/**
 * The tenant comes from X-Client-ID (`master` or any identifier names a fake active client) and
 * X-Tenant-ID (a sandbox schema; omitted: production), like the real middleware, without a registry.
 */
function fakeTenant(req: Request, res: Response, next: NextFunction) {
  const header = (name: string) => {
    const v = req.headers[name];
    return typeof v === 'string' && v.length > 0 ? v : undefined;
  };
  const named = header('x-client-id');
  const client: TenantClient =
    named === undefined || named === MASTER_CLIENT.identifier
      ? MASTER_CLIENT
      : { identifier: named, id: 1, isMaster: false };
  const schema = header('x-tenant-id') ?? PRODUCTION_SCHEMA;
  res.setHeader('X-Current-Client', client.identifier);
  res.setHeader('X-Current-Tenant', schema);
  tenantContext.run({ requestId: 'controller-tier', client, schema, ip: req.ip }, next);
}

/** Boots the stubbed application and listens on an ephemeral local port. */
export async function bootControllerApp(
  options: { listen?: boolean; controllers?: Type[]; beforeInit?: (app: INestApplication) => void } = {},
): Promise<ControllerApp> {
  Logger.overrideLogger(false);
  const authenticator = new FakeAuthenticator();
  const sandboxes = new FakeSandboxAccess();
  const moduleRef = await Test.createTestingModule({
    imports: [ConfigModule.forRoot(CONTROLLER_TIER_ENV)],
    controllers: options.controllers ?? appControllers(),
    providers: [
      { provide: Authenticator, useValue: authenticator },
      { provide: SandboxAccess, useValue: sandboxes },
      { provide: APP_GUARD, useClass: AuthGuard },
      { provide: APP_FILTER, useClass: AllExceptionsFilter },
      { provide: APP_INTERCEPTOR, useClass: GuardProbe },
    ],
  })
    .useMocker((token) =>
      typeof token === 'function' && /Settings$/.test(token.name)
        ? loadSettings(token as new () => object, CONTROLLER_TIER_ENV)
        : inertStub(token),
    )
    .compile();
  const app = moduleRef.createNestApplication({ logger: false });
  app.use(fakeTenant);
  app.useGlobalPipes(createValidationPipe());
  options.beforeInit?.(app);
  let url = '';
  if (options.listen === false) {
    await app.init();
  } else {
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    url = `http://127.0.0.1:${port}`;
  }
  let next = 0;
  return {
    app,
    url,
    sandboxes,
    bearer(credential) {
      const token = `fake-${++next}`;
      authenticator.credentials.set(token, principalFor(credential));
      return `Bearer ${token}`;
    },
    async close() {
      // The test's keep-alive connections would otherwise hold the server (and the worker) open.
      (app.getHttpServer() as Server).closeAllConnections();
      await app.close();
    },
  };
}

/** `METHOD /path` of every route the HTTP server registered, in Express's own notation. */
export function registeredRoutes(app: INestApplication): string[] {
  const express = app.getHttpAdapter().getInstance() as {
    router: { stack: { route?: { path: string | string[]; methods: Record<string, boolean> } }[] };
  };
  const routes: string[] = [];
  for (const layer of express.router.stack) {
    if (!layer.route) continue;
    const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
    for (const method of Object.keys(layer.route.methods).filter((m) => m !== '_all')) {
      for (const path of paths) routes.push(`${method.toUpperCase()} ${path}`);
    }
  }
  return routes;
}
