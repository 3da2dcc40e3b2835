import { Injectable } from '@nestjs/common';
import { tenantContext } from '../../tenancy/tenant-context';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { Principal } from '../../access/principal';
import { hasRank } from '../../access/roles';
import { SandboxGrantsRepository } from './sandbox-grants.repository';

/** The creator and every ADMIN reach all sandboxes; others only those granted to them. */
@Injectable()
export class SandboxAccess {
  constructor(
    private readonly db: TenantDatabase,
    private readonly grants: SandboxGrantsRepository,
  ) {}

  async allowed(principal: Pick<Principal, 'userId' | 'role'>, schema: string): Promise<boolean> {
    if (hasRank(principal.role, 'ADMIN')) return true;
    const dataSource = await this.db.forClient(tenantContext.get().client);
    return this.grants.reachable(dataSource.manager, principal.userId, schema);
  }
}
