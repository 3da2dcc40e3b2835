import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlExample, SqlNotRun } from '../../database/sql-example';
import { modifyReturning } from '../../database/returning.repository';

/**
 * A self-registration still waiting for its e-mail confirmation. It holds no seat, expires with its
 * link and gives way to any later creation of its address.
 */
export const PENDING_REGISTRATION = 'confirmed = false AND deleted_at IS NULL';

/** Users that hold a seat toward maxUsers: not deleted, and not a pending registration. */
const SEATED = 'deleted_at IS NULL AND confirmed';

export interface UserIdentity {
  id: number;
  email: string;
}

export interface NewRegistration {
  email: string;
  firstName: string;
  lastName: string;
  passwordHash: string;
  roleId: number;
  companyId: number | null;
  confirmationTokenHash: string;
  ttlHours: number;
}

/** What a registration's audit entry shows of the new user. */
export interface RegisteredUser extends UserIdentity {
  firstName: string;
  lastName: string;
  companyId: number | null;
}

const EXAMPLE: NewRegistration = {
  email: 'new.user@example.com',
  firstName: 'New',
  lastName: 'User',
  passwordHash: '$2b$10$abcdefghijklmnopqrstuuvwxyzabcdefghijklmnopqrstuvwxy',
  roleId: 5,
  companyId: 1,
  confirmationTokenHash: 'a3f1c2d4e5b6a7980a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6071',
  ttlHours: 48,
};

/** Self-registrations (users waiting for their e-mail confirmation) and the seats users hold. */
@Injectable()
export class RegistrationsRepository {
  /** Serialises user creation per database (admin, registration, SSO just-in-time) for the maxUsers check. */
  @SqlNotRun('waits on the advisory lock of user creation')
  async lockCreation(tx: EntityManager): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock(7243101)');
  }

  @SqlExample((c) => [c.manager])
  async countSeated(m: EntityManager): Promise<number> {
    const [row] = await m.query(`SELECT count(*)::int AS n FROM public.users WHERE ${SEATED}`);
    return row.n;
  }

  /** Deletes the pending registrations whose e-mail or username is one of `identifiers`. */
  @SqlExample((c) => [c.manager, ['new.user@example.com']])
  discardPending(tx: EntityManager, identifiers: string[]): Promise<UserIdentity[]> {
    return modifyReturning<UserIdentity>(
      tx,
      `DELETE FROM public.users
        WHERE ${PENDING_REGISTRATION} AND (lower(email) = ANY($1) OR lower(username) = ANY($1))
        RETURNING id, email`,
      [identifiers],
    );
  }

  /** Deletes the pending registrations whose confirmation time has run out. */
  @SqlExample((c) => [c.manager])
  async purgeExpired(tx: EntityManager): Promise<void> {
    await tx.query(
      `DELETE FROM public.users WHERE ${PENDING_REGISTRATION} AND confirmation_expires_at <= now()`,
    );
  }

  /** Any user, deleted or not, whose e-mail or username is `email`. */
  @SqlExample((c) => [c.manager, 'new.user@example.com'])
  async findOwner(tx: EntityManager, email: string): Promise<UserIdentity | null> {
    const [owner] = await tx.query(
      `SELECT id, email FROM public.users WHERE lower(email) = $1 OR lower(username) = $1`,
      [email],
    );
    return owner ?? null;
  }

  @SqlExample((c) => [c.manager, EXAMPLE])
  async insertPending(tx: EntityManager, r: NewRegistration): Promise<RegisteredUser> {
    const [created] = await tx.query(
      `INSERT INTO public.users (email, username, first_name, last_name, password_hash, role_id, company_id,
                                 blocked, confirmed, confirmation_token_hash, confirmation_expires_at)
       VALUES ($1, $1, $2, $3, $4, $5, $6, true, false, $7, now() + make_interval(hours => $8))
       RETURNING id, email, first_name AS "firstName", last_name AS "lastName", company_id AS "companyId"`,
      [
        r.email,
        r.firstName,
        r.lastName,
        r.passwordHash,
        r.roleId,
        r.companyId,
        r.confirmationTokenHash,
        r.ttlHours,
      ],
    );
    return created;
  }

  /** The id of the registration a confirmation token (hash) still confirms. */
  @SqlExample((c) => [c.manager, EXAMPLE.confirmationTokenHash])
  async findPendingByToken(tx: EntityManager, tokenHash: string): Promise<number | null> {
    const [pending] = await tx.query(
      `SELECT id FROM public.users
            WHERE confirmation_token_hash = $1 AND confirmation_expires_at > now() AND deleted_at IS NULL`,
      [tokenHash],
    );
    return pending?.id ?? null;
  }

  /** Confirms (and unblocks) the registration if its token still holds; answers the confirmed user. */
  @SqlExample((c) => [c.manager, 1, EXAMPLE.confirmationTokenHash])
  confirm(tx: EntityManager, id: number, tokenHash: string): Promise<UserIdentity[]> {
    return modifyReturning<UserIdentity>(
      tx,
      `UPDATE public.users
              SET confirmed = true, blocked = false, confirmation_token_hash = NULL,
                  confirmation_expires_at = NULL, updated_at = now()
            WHERE id = $1 AND confirmation_token_hash = $2 AND confirmation_expires_at > now()
            RETURNING id, email`,
      [id, tokenHash],
    );
  }
}
