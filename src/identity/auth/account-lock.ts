import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { modifyReturning } from '../../database/sql';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { AuthSettings } from './auth.settings';
import { clientAddress } from './client-address';
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

interface AddressRow {
  locked_at: Date | null;
  locked_until: Date | null;
  last_success_at: Date | null;
}

/** Address as stored: the column holds at most 100 characters. */
const currentAddress = () => clientAddress().slice(0, 100);

/** A lock that has run out, or that a later password change or reset lifted, counts from zero again. */
const ADDRESS_LOCK_ENDED = `(a.locked_until <= now() OR a.locked_at <= u.password_changed_at)`;

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
  ) {}

  /**
   * The lock that refuses a login of `user` from the current address, or null. Runs the same query
   * for an unknown identifier (no user), so both cases take as long. `manager`: read in that
   * transaction.
   */
  async check(user: LockSubject | null, manager?: EntityManager): Promise<LockScope | null> {
    const read = (m: EntityManager): Promise<AddressRow[]> =>
      m.query(
        `SELECT locked_at, locked_until, last_success_at FROM public.login_addresses
          WHERE user_id = $1 AND address = $2`,
        [user?.id ?? 0, currentAddress()],
      );
    const [row] = manager ? await read(manager) : await this.db.production(read);
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
        await recordAddressFailure(tx, userId, address, AUTH_LOCK_THRESHOLD, AUTH_LOCK_SECONDS),
        await recordAccountFailure(
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
      m.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO public.login_addresses AS a (user_id, address, last_success_at) VALUES ($1, $2, now())
           ON CONFLICT (user_id, address) DO UPDATE
              SET failed_count = 0, locked_at = NULL, locked_until = NULL, last_success_at = now()`,
          [userId, currentAddress()],
        );
        // An account lock in force stays: a known address passes it, the others still wait.
        await tx.query(
          `UPDATE public.users SET failed_login_count = 0, locked_until = NULL
            WHERE id = $1 AND (locked_until IS NULL OR locked_until <= now())
              AND (failed_login_count <> 0 OR locked_until IS NOT NULL)`,
          [userId],
        );
      }),
    );
  }

  private known(row: AddressRow | undefined, now: number): boolean {
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

/** The `threshold`-th failure in a row from one address locks the pair; true when it locked now. */
async function recordAddressFailure(
  tx: EntityManager,
  userId: number,
  address: string,
  threshold: number,
  lockSeconds: number,
): Promise<boolean> {
  await tx.query(
    `INSERT INTO public.login_addresses (user_id, address)
     SELECT id, $2 FROM public.users WHERE id = $1
     ON CONFLICT (user_id, address) DO NOTHING`,
    [userId, address],
  );
  const [row] = await modifyReturning<{ locked: boolean }>(
    tx,
    `WITH current AS (
       SELECT CASE WHEN ${ADDRESS_LOCK_ENDED} THEN 1 ELSE a.failed_count + 1 END AS count,
              ${ADDRESS_LOCK_ENDED} AS ended
         FROM public.login_addresses a JOIN public.users u ON u.id = a.user_id
        WHERE a.user_id = $1 AND a.address = $2 FOR UPDATE OF a
     )
     UPDATE public.login_addresses a
        SET failed_count = current.count,
            locked_at = CASE WHEN current.count >= $3 THEN now() WHEN current.ended THEN NULL ELSE a.locked_at END,
            locked_until = CASE WHEN current.count >= $3 THEN now() + make_interval(secs => $4)
                                WHEN current.ended THEN NULL ELSE a.locked_until END
       FROM current
      WHERE a.user_id = $1 AND a.address = $2
      RETURNING current.count >= $3 AS locked`,
    [userId, address, threshold, lockSeconds],
  );
  return row?.locked ?? false;
}

/** The `threshold`-th failure in a row from any address locks the account; true when it locked now. */
async function recordAccountFailure(
  tx: EntityManager,
  userId: number,
  threshold: number,
  lockSeconds: number,
): Promise<boolean> {
  const [row] = await modifyReturning<{ locked: boolean }>(
    tx,
    `WITH current AS (
       SELECT CASE WHEN locked_until IS NOT NULL AND locked_until <= now() THEN 1
                   ELSE failed_login_count + 1 END AS count
         FROM public.users WHERE id = $1 FOR UPDATE
     )
     UPDATE public.users u
        SET failed_login_count = current.count,
            locked_until = CASE WHEN current.count >= $2 THEN now() + make_interval(secs => $3)
                                WHEN u.locked_until <= now() THEN NULL ELSE u.locked_until END
       FROM current
      WHERE u.id = $1
      RETURNING current.count >= $2 AS locked`,
    [userId, threshold, lockSeconds],
  );
  return row?.locked ?? false;
}

/** An admin unlock: clears the account lock and the lock of every address. */
export async function clearFailedLogins(manager: EntityManager, userId: number): Promise<void> {
  await manager.query(
    `UPDATE public.users SET failed_login_count = 0, locked_until = NULL
      WHERE id = $1 AND (failed_login_count <> 0 OR locked_until IS NOT NULL)`,
    [userId],
  );
  await manager.query(
    `UPDATE public.login_addresses SET failed_count = 0, locked_at = NULL, locked_until = NULL
      WHERE user_id = $1 AND (failed_count <> 0 OR locked_until IS NOT NULL)`,
    [userId],
  );
}
