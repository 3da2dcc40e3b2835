import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlExample } from '../../database/sql-example';
import { modifyReturning } from '../../database/returning.repository';

/** The lock state of one user at one address (public.login_addresses). */
export interface AddressLock {
  locked_at: Date | null;
  locked_until: Date | null;
  last_success_at: Date | null;
}

/** A lock that has run out, or that a later password change or reset lifted, counts from zero again. */
const ADDRESS_LOCK_ENDED = `(a.locked_until <= now() OR a.locked_at <= u.password_changed_at)`;

/** Failed-login counts and locks: per user and address (login_addresses) and per account (users). */
@Injectable()
export class LoginLocksRepository {
  @SqlExample((c) => [c.manager, 1, '203.0.113.7'])
  async addressLock(m: EntityManager, userId: number, address: string): Promise<AddressLock | undefined> {
    const [row] = await m.query<AddressLock[]>(
      `SELECT locked_at, locked_until, last_success_at FROM public.login_addresses
          WHERE user_id = $1 AND address = $2`,
      [userId, address],
    );
    return row;
  }

  /** The `threshold`-th failure in a row from one address locks the pair; true when it locked now. */
  @SqlExample((c) => [c.manager, 1, '203.0.113.7', 5, 900])
  async recordAddressFailure(
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
  @SqlExample((c) => [c.manager, 1, 20, 900])
  async recordAccountFailure(
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

  /** A completed login: the address is known from now on and its count starts again. */
  @SqlExample((c) => [c.manager, 1, '203.0.113.7'])
  async recordSuccess(tx: EntityManager, userId: number, address: string): Promise<void> {
    await tx.query(
      `INSERT INTO public.login_addresses AS a (user_id, address, last_success_at) VALUES ($1, $2, now())
           ON CONFLICT (user_id, address) DO UPDATE
              SET failed_count = 0, locked_at = NULL, locked_until = NULL, last_success_at = now()`,
      [userId, address],
    );
    // An account lock in force stays: a known address passes it, the others still wait.
    await tx.query(
      `UPDATE public.users SET failed_login_count = 0, locked_until = NULL
            WHERE id = $1 AND (locked_until IS NULL OR locked_until <= now())
              AND (failed_login_count <> 0 OR locked_until IS NOT NULL)`,
      [userId],
    );
  }

  /** An admin unlock: clears the account lock and the lock of every address. */
  @SqlExample((c) => [c.manager, 1])
  async clearFailures(m: EntityManager, userId: number): Promise<void> {
    await m.query(
      `UPDATE public.users SET failed_login_count = 0, locked_until = NULL
      WHERE id = $1 AND (failed_login_count <> 0 OR locked_until IS NOT NULL)`,
      [userId],
    );
    await m.query(
      `UPDATE public.login_addresses SET failed_count = 0, locked_at = NULL, locked_until = NULL
      WHERE user_id = $1 AND (failed_count <> 0 OR locked_until IS NOT NULL)`,
      [userId],
    );
  }
}
