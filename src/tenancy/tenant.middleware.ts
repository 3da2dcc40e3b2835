import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { requestIdOf } from '../common/http/request-id';
import { Client } from './entities/client.entity';
import { ClientRegistry } from './client-registry';
import { clientMovingRefusal, clientRestoringRefusal, MigratingClients } from './migrating-clients';
import { SandboxSchemas } from './sandbox-schemas';
import { MASTER_CLIENT, PRODUCTION_SCHEMA, TenantClient, tenantContext } from './tenant-context';

const IDENTIFIER = /^[a-z0-9][a-z0-9_-]{0,39}$/i;
/** Methods that only read: they go on while a client's database is being moved. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

const first = (value: unknown): string | undefined => {
  const v = Array.isArray(value) ? value[0] : value;
  return typeof v === 'string' && v.length > 0 ? v : undefined;
};

/** `Acme.Example.COM.` and `acme.example.com` name the same host: lower case, no trailing dot. */
export const normalizeHost = (host: string | undefined) => (host ?? '').toLowerCase().replace(/\.+$/, '');

/**
 * Resolves the client (X-Client-ID, ?client=, subdomain, custom domain, master) and the sandbox
 * (X-Tenant-ID, X-Sandbox-ID, ?sandbox=, public) of every request before authentication, and
 * enters the tenant context for the rest of the request.
 */
@Injectable()
export class TenantMiddleware implements NestMiddleware {
  constructor(
    private readonly config: AppConfig,
    private readonly registry: ClientRegistry,
    private readonly sandboxes: SandboxSchemas,
    private readonly migrating: MigratingClients,
  ) {}

  async use(req: Request, res: Response, next: NextFunction) {
    const requestId = requestIdOf(req, res);
    res.setHeader('X-Request-ID', requestId);
    const client = this.resolveClient(req);
    res.setHeader('X-Current-Client', client.identifier);
    const schema = await this.resolveSchema(req, client);
    res.setHeader('X-Current-Tenant', schema);
    tenantContext.run(
      { requestId, client, schema, ip: req.ip, userAgent: first(req.headers['user-agent'])?.slice(0, 500) },
      next,
    );
  }

  private resolveClient(req: Request): TenantClient {
    if (!this.config.MULTITENANCY_DATABASE_ENABLED) return MASTER_CLIENT;
    const named = first(req.headers['x-client-id']) ?? first(req.query.client);
    if (named !== undefined) {
      if (named.toLowerCase() === MASTER_CLIENT.identifier) return MASTER_CLIENT;
      return this.usable(req, IDENTIFIER.test(named) ? this.registry.findByIdentifier(named) : undefined);
    }
    const host = normalizeHost(req.hostname);
    const base = this.config.MULTITENANCY_BASE_DOMAIN
      ? normalizeHost(this.config.MULTITENANCY_BASE_DOMAIN)
      : '';
    if (base && host !== base && host.endsWith(`.${base}`)) {
      return this.usable(req, this.registry.findByHost(host));
    }
    const custom = host ? this.registry.findByHost(host) : undefined;
    return custom ? this.usable(req, custom) : MASTER_CLIENT;
  }

  private usable(req: Request, client: Client | undefined): TenantClient {
    if (!client || client.status !== 'ACTIVE') throw AppError.clientNotFound();
    if (client.restoringSince) throw clientRestoringRefusal();
    if (this.migrating.has(client.id)) throw MigratingClients.refusal();
    if (client.movingToServerId && !READS.has(req.method)) throw clientMovingRefusal();
    this.registry.touch(client);
    return { identifier: client.identifier, id: client.id, isMaster: false };
  }

  private async resolveSchema(req: Request, client: TenantClient): Promise<string> {
    const named =
      first(req.headers['x-tenant-id']) ?? first(req.headers['x-sandbox-id']) ?? first(req.query.sandbox);
    if (named === undefined || named === PRODUCTION_SCHEMA || named === 'main') return PRODUCTION_SCHEMA;
    if (!(await this.sandboxes.exists(client, named))) {
      throw new AppError(404, 'NOT_FOUND', 'Sandbox not found');
    }
    return named;
  }
}
