import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { ClientRegistry } from '../../tenancy/client-registry';
import { MASTER_CLIENT, PRODUCTION_SCHEMA, TenantClient, tenantContext } from '../../tenancy/tenant-context';

/**
 * Re-enters the tenant context of the client named by a verified SSO state: the callback carries no
 * client header, so the middleware resolved the master database.
 */
@Injectable()
export class ClientScope {
  constructor(private readonly registry: ClientRegistry) {}

  resolve(identifier: string): TenantClient {
    if (identifier === MASTER_CLIENT.identifier) return MASTER_CLIENT;
    const client = this.registry.findByIdentifier(identifier);
    if (!client || client.status !== 'ACTIVE') throw AppError.clientNotFound();
    return { identifier: client.identifier, id: client.id, isMaster: false };
  }

  run<T>(identifier: string, work: () => Promise<T>): Promise<T> {
    const client = this.resolve(identifier);
    const store = { ...tenantContext.get(), client, schema: PRODUCTION_SCHEMA };
    delete store.principal;
    return tenantContext.run(store, work);
  }
}
