import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppError } from '../common/errors/app-error';
import { ClientRegistry } from '../tenancy/client-registry';
import { tenantContext } from '../tenancy/tenant-context';

/** Serialises user creation per database (admin, registration, SSO just-in-time) for the maxUsers check. */
export async function lockUserCreation(manager: EntityManager): Promise<void> {
  await manager.query('SELECT pg_advisory_xact_lock(7243101)');
}

/** maxUsers of the current client (the master database is unlimited). */
@Injectable()
export class UserQuota {
  constructor(private readonly registry: ClientRegistry) {}

  /**
   * Call inside the transaction that creates the user: it serialises user creation per database,
   * so two parallel creations cannot both take the last seat.
   */
  async ensureRoom(manager: EntityManager): Promise<void> {
    const { client } = tenantContext.get();
    if (client.isMaster) return;
    const maxUsers = this.registry.findByIdentifier(client.identifier)?.maxUsers;
    if (maxUsers === null || maxUsers === undefined) return;
    await lockUserCreation(manager);
    const [row] = await manager.query('SELECT count(*)::int AS n FROM public.users WHERE deleted_at IS NULL');
    if (row.n >= maxUsers) throw AppError.conflict(`This client may have at most ${maxUsers} users`);
  }
}
