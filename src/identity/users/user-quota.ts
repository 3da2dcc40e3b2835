import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuditWriter } from '../../audit-trail/audit-writer';
import { AppError } from '../../common/errors/app-error';
import { modifyReturning } from '../../database/sql';
import { ClientRegistry } from '../../tenancy/client-registry';
import { tenantContext } from '../../tenancy/tenant-context';

/** Serialises user creation per database (admin, registration, SSO just-in-time) for the maxUsers check. */
export async function lockUserCreation(manager: EntityManager): Promise<void> {
  await manager.query('SELECT pg_advisory_xact_lock(7243101)');
}

/**
 * A self-registration still waiting for its e-mail confirmation. It holds no seat, expires with its
 * link and gives way to any later creation of its address.
 */
export const PENDING_REGISTRATION = 'confirmed = false AND deleted_at IS NULL';

/** Users that hold a seat toward maxUsers: not deleted, and not a pending registration. */
const SEATED = 'deleted_at IS NULL AND confirmed';

const atMost = (maxUsers: number) => AppError.conflict(`This client may have at most ${maxUsers} users`);

/** maxUsers of the current client (the master database is unlimited) and pending registrations. */
@Injectable()
export class UserQuota {
  constructor(
    private readonly registry: ClientRegistry,
    private readonly audit: AuditWriter,
  ) {}

  /**
   * Call inside the transaction that creates (or confirms) the user: it serialises user creation
   * per database, so two parallel creations cannot both take the last seat. Throws `whenFull(max)`.
   */
  async ensureRoom(manager: EntityManager, whenFull: (maxUsers: number) => Error = atMost): Promise<void> {
    const { client } = tenantContext.get();
    if (client.isMaster) return;
    const maxUsers = this.registry.findByIdentifier(client.identifier)?.maxUsers;
    if (maxUsers === null || maxUsers === undefined) return;
    await lockUserCreation(manager);
    const [row] = await manager.query(`SELECT count(*)::int AS n FROM public.users WHERE ${SEATED}`);
    if (row.n >= maxUsers) throw whenFull(maxUsers);
  }

  /**
   * Deletes the pending registrations whose e-mail or username is one of `identifiers` (normalised),
   * so their password and confirmation links die, and records each; then the address is free for
   * whatever creates it (`by`: a later registration, an administrator, SSO).
   */
  async discardPending(manager: EntityManager, identifiers: string[], by: string): Promise<void> {
    await lockUserCreation(manager);
    const rows = await modifyReturning<{ id: number; email: string }>(
      manager,
      `DELETE FROM public.users
        WHERE ${PENDING_REGISTRATION} AND (lower(email) = ANY($1) OR lower(username) = ANY($1))
        RETURNING id, email`,
      [identifiers],
    );
    for (const row of rows) {
      await this.audit.record(manager, {
        action: 'DELETE',
        entityType: 'User',
        entityId: row.id,
        message: `Unconfirmed registration of ${row.email} replaced by ${by}`,
        changes: { email: { old: row.email, new: null } },
        metadata: { event: 'REGISTRATION_DISCARDED', replacedBy: by },
      });
    }
  }

  /** Deletes the pending registrations whose confirmation time has run out. */
  async purgeExpired(manager: EntityManager): Promise<void> {
    await manager.query(
      `DELETE FROM public.users WHERE ${PENDING_REGISTRATION} AND confirmation_expires_at <= now()`,
    );
  }
}
