import { Injectable } from '@nestjs/common';
import { tenantContext } from '../../tenancy/tenant-context';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { Principal } from '../../access/principal';
import { hasRank } from '../../access/roles';

/** The creator and every ADMIN reach all sandboxes; others only those granted to them. */
@Injectable()
export class SandboxAccess {
  constructor(private readonly db: TenantDatabase) {}

  async allowed(principal: Pick<Principal, 'userId' | 'role'>, schema: string): Promise<boolean> {
    if (hasRank(principal.role, 'ADMIN')) return true;
    const dataSource = await this.db.forClient(tenantContext.get().client);
    const rows = await dataSource.query(
      `SELECT 1 FROM public.sandboxes s
        WHERE s.schema_name = $2
          AND (s.created_by_id = $1
               OR EXISTS (SELECT 1 FROM public.user_sandboxes us WHERE us.sandbox_id = s.id AND us.user_id = $1))`,
      [principal.userId, schema],
    );
    return rows.length > 0;
  }
}
