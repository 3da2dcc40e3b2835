import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlExample, SqlNotRun } from '../database/sql-example';

/** Held while the master database is seeded, so replicas starting together seed it once. */
const MASTER_SEED_LOCK = 7243002;

export interface FirstSuperAdmin {
  email: string;
  passwordHash: string;
  roleId: number;
  companyId: number;
}

/**
 * The first administrator of a database, written by the platform when it seeds the master database
 * (a SUPER_ADMIN) or provisions a client's (its ADMIN), in the seeding transaction.
 */
@Injectable()
export class FirstAdminsRepository {
  @SqlNotRun('waits on an advisory lock held by another replica starting')
  async lockMasterSeed(tx: EntityManager): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(${MASTER_SEED_LOCK})`);
  }

  @SqlExample((c) => [c.manager])
  async superAdminExists(tx: EntityManager): Promise<boolean> {
    const [existing] = await tx.query(
      `SELECT 1 FROM public.users u JOIN public.roles r ON r.id = u.role_id WHERE r.type = 'SUPER_ADMIN' LIMIT 1`,
    );
    return !!existing;
  }

  @SqlExample((c) => [
    c.manager,
    {
      email: 'admin@platform.test',
      passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$example',
      roleId: 1,
      companyId: 1,
    },
  ])
  async insertSuperAdmin(tx: EntityManager, admin: FirstSuperAdmin): Promise<void> {
    await tx.query(
      `INSERT INTO public.users (email, username, first_name, last_name, password_hash, role_id, company_id, confirmed)
       VALUES ($1, $1, 'Platform', 'Administrator', $2, $3, $4, true)`,
      [admin.email, admin.passwordHash, admin.roleId, admin.companyId],
    );
  }

  /** The user of that email, whatever its case. */
  @SqlExample((c) => [c.manager, 'ops@acme.test'])
  async userIdByEmail(tx: EntityManager, email: string): Promise<number | null> {
    const [existing]: { id: number }[] = await tx.query(
      'SELECT id FROM public.users WHERE lower(email) = lower($1)',
      [email],
    );
    return existing?.id ?? null;
  }

  /** A confirmed user without a password (it sets one through the setup code); answers its id. */
  @SqlExample((c) => [c.manager, 'ops@acme.test', 1, 1])
  async insertConfirmedUser(
    tx: EntityManager,
    email: string,
    roleId: number,
    companyId: number,
  ): Promise<number> {
    const [user]: { id: number }[] = await tx.query(
      `INSERT INTO public.users (email, username, role_id, company_id, confirmed)
       VALUES ($1, $1, $2, $3, true) RETURNING id`,
      [email, roleId, companyId],
    );
    return user.id;
  }
}
