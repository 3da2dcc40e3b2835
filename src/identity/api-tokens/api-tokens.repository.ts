import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlExample } from '../../database/sql-example';
import { ApiToken, ResourcePermission } from './entities/api-token.entity';

/** What a bearer lookup needs of a token (by the hash of its value). */
export interface ApiTokenCredential {
  id: number;
  name: string;
  createdById: number;
  isFullAccess: boolean;
  permissions: ResourcePermission[];
  expiresAt: Date | null;
  revokedAt: Date | null;
}

interface CredentialRow {
  id: number;
  name: string;
  created_by_id: number;
  is_full_access: boolean;
  permissions: ResourcePermission[];
  expires_at: Date | null;
  revoked_at: Date | null;
}

export type NewApiToken = Pick<
  ApiToken,
  | 'name'
  | 'description'
  | 'tokenHash'
  | 'tokenPreview'
  | 'createdById'
  | 'companyId'
  | 'isFullAccess'
  | 'permissions'
  | 'expiresAt'
>;

const EXAMPLE_HASH = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
const EXAMPLE_TOKEN: NewApiToken = {
  name: 'Reporting',
  description: null,
  tokenHash: EXAMPLE_HASH,
  tokenPreview: 'svc_abcdef',
  createdById: 1,
  companyId: 1,
  isFullAccess: false,
  permissions: [
    {
      resourceName: 'units',
      canCreate: false,
      canRead: true,
      canUpdate: false,
      canDelete: false,
      canPublish: false,
    },
  ],
  expiresAt: null,
};

/** API tokens of a client (public.api_tokens). */
@Injectable()
export class ApiTokensRepository {
  @SqlExample((c) => [c.manager])
  list(m: EntityManager): Promise<ApiToken[]> {
    return m.getRepository(ApiToken).find({ order: { id: 'ASC' } });
  }

  @SqlExample((c) => [c.manager, EXAMPLE_TOKEN])
  insert(tx: EntityManager, token: NewApiToken): Promise<ApiToken> {
    const repo = tx.getRepository(ApiToken);
    return repo.save(repo.create(token));
  }

  /** The token with its hash, its row locked until the transaction ends. */
  @SqlExample((c) => [c.manager, 1])
  lockWithHash(tx: EntityManager, id: number): Promise<ApiToken | null> {
    return tx
      .getRepository(ApiToken)
      .createQueryBuilder('t')
      .addSelect('t.tokenHash')
      .where('t.id = :id', { id })
      .setLock('pessimistic_write')
      .getOne();
  }

  @SqlExample((c) => [c.manager, 1, new Date('2026-01-01T00:00:00Z')])
  async markRevoked(tx: EntityManager, id: number, revokedAt: Date): Promise<void> {
    await tx.getRepository(ApiToken).update(id, { revokedAt });
  }

  @SqlExample((c) => [c.manager, EXAMPLE_HASH])
  async findCredential(m: EntityManager, tokenHash: string): Promise<ApiTokenCredential | null> {
    const [row] = await m.query<CredentialRow[]>(
      `SELECT id, name, created_by_id, is_full_access, permissions, expires_at, revoked_at
         FROM public.api_tokens WHERE token_hash = $1`,
      [tokenHash],
    );
    if (!row) return null;
    return {
      id: row.id,
      name: row.name,
      createdById: row.created_by_id,
      isFullAccess: row.is_full_access,
      permissions: row.permissions,
      expiresAt: row.expires_at,
      revokedAt: row.revoked_at,
    };
  }

  /** Moves each token's last use forward to its latest use in `uses` (never back). */
  @SqlExample((c) => [c.manager, [[1, new Date('2026-01-01T00:00:00Z')]]])
  async touchLastUsed(tx: EntityManager, uses: [tokenId: number, at: Date][]): Promise<void> {
    await tx.query(
      `UPDATE public.api_tokens t SET last_used_at = GREATEST(coalesce(t.last_used_at, u.at), u.at)
           FROM unnest($1::int[], $2::timestamptz[]) AS u(id, at) WHERE t.id = u.id`,
      [uses.map(([id]) => id), uses.map(([, at]) => at)],
    );
  }
}
