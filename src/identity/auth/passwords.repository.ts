import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlExample } from '../../database/sql-example';
import { modifyReturning } from '../../database/returning.repository';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { User } from '../users/entities/user.entity';

export interface PasswordHolder {
  id: number;
  email: string;
}

const EXAMPLE_HASH = '$2b$10$abcdefghijklmnopqrstuuvwxyzabcdefghijklmnopqrstuvwxy';
const EXAMPLE_CODE_HASH = '2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae';

/** Passwords of users: the change by the user, reset codes and their redemption. */
@Injectable()
export class PasswordsRepository {
  constructor(private readonly db: TenantDatabase) {}

  /** The user with the password hash (a column never read otherwise). */
  @SqlExample([1])
  findWithHash(id: number): Promise<User | null> {
    return this.db.production((m) =>
      m
        .getRepository(User)
        .createQueryBuilder('u')
        .addSelect('u.passwordHash')
        .where('u.id = :id', { id })
        .getOne(),
    );
  }

  /** A new password: every access token issued before carries the old token version and stops. */
  @SqlExample((c) => [c.manager, 1, EXAMPLE_HASH])
  async change(tx: EntityManager, id: number, passwordHash: string): Promise<void> {
    await tx.query(
      `UPDATE public.users SET password_hash = $2, password_changed_at = now(),
                  token_version = token_version + 1, updated_at = now()
            WHERE id = $1`,
      [id, passwordHash],
    );
  }

  /** Stores the hash of a reset code and its end on the user (no row for id 0). */
  @SqlExample((c) => [c.manager, 1, EXAMPLE_CODE_HASH, new Date('2026-01-01T01:00:00Z')])
  async setResetCode(m: EntityManager, userId: number, codeHash: string, expiresAt: Date): Promise<void> {
    await m.query(
      'UPDATE public.users SET reset_token_hash = $2, reset_token_expires_at = $3 WHERE id = $1',
      [userId, codeHash, expiresAt],
    );
  }

  /** A user who may ask for a reset: not deleted, confirmed and not blocked. */
  @SqlExample((c) => [c.manager, 'admin@example.com'])
  async findResettable(m: EntityManager, email: string): Promise<PasswordHolder | null> {
    const [user] = await m.query(
      `SELECT id, email FROM public.users
          WHERE lower(email) = $1 AND deleted_at IS NULL AND confirmed AND NOT blocked`,
      [email],
    );
    return user ?? null;
  }

  /** True when a live reset code has this hash (read before paying for a password hash). */
  @SqlExample([EXAMPLE_CODE_HASH])
  async codeHeld(codeHash: string): Promise<boolean> {
    const [holder] = await this.db.query(
      `SELECT id FROM public.users
        WHERE reset_token_hash = $1 AND reset_token_expires_at > now() AND deleted_at IS NULL`,
      [codeHash],
    );
    return Boolean(holder);
  }

  /**
   * Redeems a live reset code: the new password, the code gone, the e-mail confirmed, the account
   * lock ended and the token version moved on. Answers the user, or null when the code no longer holds.
   */
  @SqlExample((c) => [c.manager, EXAMPLE_CODE_HASH, EXAMPLE_HASH])
  async resetWithCode(
    tx: EntityManager,
    codeHash: string,
    passwordHash: string,
  ): Promise<PasswordHolder | null> {
    const [row] = await modifyReturning<PasswordHolder>(
      tx,
      `UPDATE public.users
            SET password_hash = $2, password_changed_at = now(), token_version = token_version + 1,
                reset_token_hash = NULL, reset_token_expires_at = NULL, confirmed = true,
                blocked = CASE WHEN confirmed THEN blocked ELSE false END,
                failed_login_count = 0, locked_until = NULL, updated_at = now()
          WHERE reset_token_hash = $1 AND reset_token_expires_at > now() AND deleted_at IS NULL
          RETURNING id, email`,
      [codeHash, passwordHash],
    );
    return row ?? null;
  }
}
