import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { AuthSettings } from './auth.settings';
import { clientAddress } from './client-address';
import { AddressLock, LoginLocksRepository } from './login-locks.repository';
import { SecurityAudit } from './security-audit';

export const accountLocked = () => new AppError(423, 'ACCOUNT_LOCKED', 'Account is locked; try again later');

/** What the lock check needs of a user row. */
export interface LockSubject {
  id: number;
  email: string;
  lockedUntil: Date | null;
  passwordChangedAt: Date | null;
}

/** `address`: this user from this address; `account`: this user from any address not known. */
export type LockScope = 'address' | 'account';

/** Address as stored: the column holds at most 100 characters. */
const currentAddress = () => clientAddress().slice(0, 100);

/**
 * Failed logins (wrong passwords and wrong two-factor codes) lock in two steps.
 *
 * - Per user and client address: the AUTH_LOCK_THRESHOLD-th failure in a row from one address locks
 *   the account for that address only, so a stranger's guesses do not keep the owner out.
 * - Account-wide (AUTH_ACCOUNT_LOCK_THRESHOLD, 0 = off): failures in a row from any address lock the
 *   account; an address with a successful login in the last AUTH_KNOWN_ADDRESS_DAYS still gets in.
 *
 * A password reset by mail ends both (the reset clears the account lock; an address lock set before
 * the password changed no longer counts). An admin unlock ends both. Locks last AUTH_LOCK_SECONDS.
 */
@Injectable()
export class LoginLocks {
  constructor(
    private readonly db: TenantDatabase,
    private readonly settings: AuthSettings,
    private readonly securityAudit: SecurityAudit,
    private readonly repo: LoginLocksRepository,
  ) {}

  /**
   * The lock that refuses a login of `user` from the current address, or null. Runs the same query
   * for an unknown identifier (no user), so both cases take as long. `manager`: read in that
   * transaction.
   */
  async check(user: LockSubject | null, manager?: EntityManager): Promise<LockScope | null> {
    const read = (m: EntityManager) => this.repo.addressLock(m, user?.id ?? 0, currentAddress());
    const row = manager ? await read(manager) : await this.db.production(read);
    if (!user) return null;
    const now = Date.now();
    const changedAt = user.passwordChangedAt?.getTime() ?? 0;
    if (row?.locked_until && row.locked_until.getTime() > now && row.locked_at!.getTime() > changedAt) {
      return 'address';
    }
    if (user.lockedUntil && user.lockedUntil.getTime() > now && !this.known(row, now)) return 'account';
    return null;
  }

  /** Counts one failure of `user` (or of an unknown identifier: the same statements, matching no row). */
  async failed(user: { id: number; email: string } | null): Promise<void> {
    const userId = user?.id ?? 0;
    const address = currentAddress();
    const { AUTH_LOCK_THRESHOLD, AUTH_ACCOUNT_LOCK_THRESHOLD, AUTH_LOCK_SECONDS } = this.settings;
    const [addressLocked, accountLocked] = await this.db.production((m) =>
      m.transaction(async (tx) => [
        await this.repo.recordAddressFailure(tx, userId, address, AUTH_LOCK_THRESHOLD, AUTH_LOCK_SECONDS),
        await this.repo.recordAccountFailure(
          tx,
          userId,
          AUTH_ACCOUNT_LOCK_THRESHOLD || 2_147_483_647,
          AUTH_LOCK_SECONDS,
        ),
      ]),
    );
    if (!user) return;
    if (addressLocked) await this.audit(user, 'address', AUTH_LOCK_THRESHOLD);
    if (accountLocked) await this.audit(user, 'account', AUTH_ACCOUNT_LOCK_THRESHOLD);
  }

  /** A completed login: the address is known from now on and its count starts again. */
  async succeeded(userId: number): Promise<void> {
    await this.db.production((m) =>
      m.transaction((tx) => this.repo.recordSuccess(tx, userId, currentAddress())),
    );
  }

  private known(row: AddressLock | undefined, now: number): boolean {
    const days = this.settings.AUTH_KNOWN_ADDRESS_DAYS;
    if (!days || !row?.last_success_at) return false;
    return row.last_success_at.getTime() > now - days * 86_400_000;
  }

  private audit(user: { id: number; email: string }, scope: LockScope, threshold: number) {
    return this.securityAudit.record('ACCOUNT_LOCKED', {
      action: 'UPDATE',
      entityType: 'User',
      entityId: user.id,
      userId: user.id,
      username: user.email,
      message:
        scope === 'address'
          ? `Account locked for one address after ${threshold} failed logins from it`
          : `Account locked after ${threshold} failed logins`,
      metadata: { scope, lockSeconds: this.settings.AUTH_LOCK_SECONDS },
    });
  }
}
