import { EntityManager } from 'typeorm';
import { modifyReturning } from '../database/sql';

export interface FailureResult {
  failedLoginCount: number;
  lockedNow: boolean;
}

/**
 * Counts one failed password login; the `threshold`-th failure in a row locks the account for
 * `lockSeconds`. A lock that has run out starts a fresh count.
 */
export async function recordFailedLogin(
  manager: EntityManager,
  userId: number,
  threshold: number,
  lockSeconds: number,
): Promise<FailureResult> {
  const [row] = await modifyReturning<{ failed_login_count: number; locked: boolean }>(
    manager,
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
      RETURNING u.failed_login_count, current.count >= $2 AS locked`,
    [userId, threshold, lockSeconds],
  );
  return { failedLoginCount: row?.failed_login_count ?? 0, lockedNow: row?.locked ?? false };
}

/** A successful login (or an admin unlock) clears the count and any lock. */
export async function clearFailedLogins(manager: EntityManager, userId: number): Promise<void> {
  await manager.query(
    `UPDATE public.users SET failed_login_count = 0, locked_until = NULL
      WHERE id = $1 AND (failed_login_count <> 0 OR locked_until IS NOT NULL)`,
    [userId],
  );
}
