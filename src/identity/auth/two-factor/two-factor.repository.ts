import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlExample } from '../../../database/sql-example';
import { modifyReturning } from '../../../database/returning.repository';
import { User } from '../../users/entities/user.entity';

const EXAMPLE_SEALED = 'v1:bm9uY2U:c2VhbGVkLXNlY3JldA';
const EXAMPLE_CODE_HASH = '2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae';

/** The two-factor columns of users: enrolment, the secret, the last accepted step and recovery codes. */
@Injectable()
export class TwoFactorRepository {
  /** A user not deleted, with role and sealed secrets; `lock` locks the user row. */
  @SqlExample((c) => [c.manager, 1, false])
  @SqlExample((c) => [c.manager, 1, true])
  findWithSecrets(m: EntityManager, id: number, lock = false): Promise<User | null> {
    const qb = m
      .getRepository(User)
      .createQueryBuilder('u')
      .addSelect(['u.twoFactorSecret', 'u.twoFactorPendingSecret'])
      .innerJoinAndSelect('u.role', 'role')
      .where('u.id = :id AND u.deleted_at IS NULL', { id });
    if (lock) qb.setLock('pessimistic_write', undefined, ['u']);
    return qb.getOne();
  }

  /** An enrolment waiting for its first code: the sealed secret and the recovery code hashes. */
  @SqlExample((c) => [c.manager, 1, EXAMPLE_SEALED, [EXAMPLE_CODE_HASH]])
  async startEnrolment(m: EntityManager, id: number, sealedSecret: string, recoveryHashes: string[]) {
    await m.query(
      `UPDATE public.users SET two_factor_pending_secret = $2, two_factor_pending_recovery_hashes = $3
          WHERE id = $1`,
      [id, sealedSecret, recoveryHashes],
    );
  }

  /** The pending enrolment becomes the user's two-factor secret; `step` is the code just accepted. */
  @SqlExample((c) => [c.manager, 1, 59_000_000])
  async completeEnrolment(tx: EntityManager, id: number, step: number): Promise<void> {
    await tx.query(
      `UPDATE public.users
              SET two_factor_enabled = true, two_factor_secret = two_factor_pending_secret,
                  two_factor_recovery_hashes = two_factor_pending_recovery_hashes,
                  two_factor_pending_secret = NULL, two_factor_pending_recovery_hashes = '{}',
                  two_factor_last_step = $2, updated_at = now()
            WHERE id = $1`,
      [id, step],
    );
  }

  @SqlExample((c) => [c.manager, 1])
  async disable(tx: EntityManager, id: number): Promise<void> {
    await tx.query(
      `UPDATE public.users
              SET two_factor_enabled = false, two_factor_secret = NULL, two_factor_recovery_hashes = '{}',
                  two_factor_pending_secret = NULL, two_factor_pending_recovery_hashes = '{}',
                  two_factor_last_step = NULL, updated_at = now()
            WHERE id = $1`,
      [id],
    );
  }

  /** Takes a TOTP time step if it is later than the last accepted one; false otherwise. */
  @SqlExample((c) => [c.manager, 1, 59_000_000])
  async acceptStep(tx: EntityManager, id: number, step: number): Promise<boolean> {
    const rows = await modifyReturning(
      tx,
      `UPDATE public.users SET two_factor_last_step = $2
        WHERE id = $1 AND (two_factor_last_step IS NULL OR two_factor_last_step < $2) RETURNING id`,
      [id, step],
    );
    return rows.length === 1;
  }

  /** Uses up a recovery code (by hash); false when the user has no such code left. */
  @SqlExample((c) => [c.manager, 1, EXAMPLE_CODE_HASH])
  async useRecoveryCode(tx: EntityManager, id: number, codeHash: string): Promise<boolean> {
    const rows = await modifyReturning(
      tx,
      `UPDATE public.users SET two_factor_recovery_hashes = array_remove(two_factor_recovery_hashes, $2)
        WHERE id = $1 AND $2 = ANY(two_factor_recovery_hashes) RETURNING id`,
      [id, codeHash],
    );
    return rows.length === 1;
  }
}
