import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlExample, SqlNotRun } from '../../database/sql-example';
import { modifyReturning } from '../../database/returning.repository';
import type { ProviderType } from '../entities/identity-provider.entity';

/** The identity an IdP vouched for (what sso_identities stores of it). */
export interface IdentityLink {
  providerId: number;
  subject: string;
  email: string | null;
  sessionIndex: string | null;
}

/** A linked account as its owner sees it. */
export interface LinkedAccount {
  providerId: number;
  providerName: string;
  displayName: string;
  providerType: ProviderType;
  subject: string;
  email: string | null;
  linkedAt: Date;
  lastLoginAt: Date | null;
}

interface LinkedAccountRow {
  provider_id: number;
  name: string;
  display_name: string;
  provider_type: ProviderType;
  subject: string;
  email: string | null;
  linked_at: Date;
  last_login_at: Date | null;
}

const toLinkedAccount = (r: LinkedAccountRow): LinkedAccount => ({
  providerId: r.provider_id,
  providerName: r.name,
  displayName: r.display_name,
  providerType: r.provider_type,
  subject: r.subject,
  email: r.email,
  linkedAt: r.linked_at,
  lastLoginAt: r.last_login_at,
});

const EXAMPLE_LINK: IdentityLink = {
  providerId: 1,
  subject: 'idp-subject-0001',
  email: 'jane.doe@example.com',
  sessionIndex: null,
};

/** Accounts at identity providers linked to users (sso_identities), matched by (provider, subject). */
@Injectable()
export class SsoIdentitiesRepository {
  /** The user an identity is linked to, or null. */
  @SqlExample((c) => [c.manager, 1, 'idp-subject-0001'])
  async ownerOf(m: EntityManager, providerId: number, subject: string): Promise<number | null> {
    const [owner] = await m.query(
      'SELECT user_id FROM sso_identities WHERE provider_id = $1 AND subject = $2',
      [providerId, subject],
    );
    return owner?.user_id ?? null;
  }

  /** True when the user already has an account of this provider linked. */
  @SqlExample((c) => [c.manager, 1, 1])
  async userHasLink(m: EntityManager, providerId: number, userId: number): Promise<boolean> {
    const [mine] = await m.query(
      'SELECT subject FROM sso_identities WHERE provider_id = $1 AND user_id = $2',
      [providerId, userId],
    );
    return Boolean(mine);
  }

  @SqlNotRun('a link needs an identity provider row, and the database the script runs on has none')
  async insert(tx: EntityManager, link: IdentityLink, userId: number): Promise<void> {
    await tx.query(
      `INSERT INTO sso_identities (provider_id, user_id, subject, email, session_index)
       VALUES ($1, $2, $3, $4, $5)`,
      [link.providerId, userId, link.subject, link.email, link.sessionIndex],
    );
  }

  /** A sign-in through the identity: its last login, its e-mail (when sent) and SAML session. */
  @SqlExample((c) => [c.manager, EXAMPLE_LINK])
  async recordLogin(tx: EntityManager, link: IdentityLink): Promise<void> {
    await tx.query(
      `UPDATE sso_identities SET last_login_at = now(), email = coalesce($3, email), session_index = $4
            WHERE provider_id = $1 AND subject = $2`,
      [link.providerId, link.subject, link.email, link.sessionIndex],
    );
  }

  /** The user's linked accounts, oldest link first. */
  @SqlExample((c) => [c.manager, 1])
  async listOfUser(m: EntityManager, userId: number): Promise<LinkedAccount[]> {
    const rows = await m.query<LinkedAccountRow[]>(
      `SELECT i.provider_id, p.name, p.display_name, p.provider_type, i.subject, i.email, i.linked_at, i.last_login_at
           FROM sso_identities i JOIN identity_providers p ON p.id = i.provider_id
          WHERE i.user_id = $1 ORDER BY i.linked_at`,
      [userId],
    );
    return rows.map(toLinkedAccount);
  }

  /** The subject and SAML session of the user's account at the provider (for single logout). */
  @SqlExample((c) => [c.manager, 1, 1])
  async sessionOf(
    m: EntityManager,
    userId: number,
    providerId: number,
  ): Promise<{ subject: string; sessionIndex: string | null } | null> {
    const [link] = await m.query(
      'SELECT subject, session_index FROM sso_identities WHERE user_id = $1 AND provider_id = $2',
      [userId, providerId],
    );
    return link ? { subject: link.subject, sessionIndex: link.session_index } : null;
  }

  /** Unlinks the user's account at the provider; answers its subject, or null when none was linked. */
  @SqlExample((c) => [c.manager, 1, 1])
  async unlink(tx: EntityManager, userId: number, providerId: number): Promise<string | null> {
    const [row] = await modifyReturning<{ subject: string }>(
      tx,
      'DELETE FROM sso_identities WHERE user_id = $1 AND provider_id = $2 RETURNING subject',
      [userId, providerId],
    );
    return row?.subject ?? null;
  }
}
