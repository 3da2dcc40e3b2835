import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuditWriter } from '../../audit-trail/audit-writer';
import { AppError } from '../../common/errors/app-error';
import { ClientRegistry } from '../../tenancy/client-registry';
import { tenantContext } from '../../tenancy/tenant-context';
import { RegistrationsRepository } from './registrations.repository';

const atMost = (maxUsers: number) => AppError.conflict(`This client may have at most ${maxUsers} users`);

/** maxUsers of the current client (the master database is unlimited) and pending registrations. */
@Injectable()
export class UserQuota {
  constructor(
    private readonly registry: ClientRegistry,
    private readonly audit: AuditWriter,
    private readonly registrations: RegistrationsRepository,
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
    await this.registrations.lockCreation(manager);
    if ((await this.registrations.countSeated(manager)) >= maxUsers) throw whenFull(maxUsers);
  }

  /**
   * Deletes the pending registrations whose e-mail or username is one of `identifiers` (normalised),
   * so their password and confirmation links die, and records each; then the address is free for
   * whatever creates it (`by`: a later registration, an administrator, SSO).
   */
  async discardPending(manager: EntityManager, identifiers: string[], by: string): Promise<void> {
    await this.registrations.lockCreation(manager);
    const rows = await this.registrations.discardPending(manager, identifiers);
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
  purgeExpired(manager: EntityManager): Promise<void> {
    return this.registrations.purgeExpired(manager);
  }
}
