import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlExample } from '../../database/sql-example';

/** A refresh token as its rotation reads it. */
export interface RefreshTokenRow {
  id: number;
  user_id: number;
  family_id: string;
  expires_at: Date;
  revoked_at: Date | null;
  rotated_at: Date | null;
}

const EXAMPLE_HASH = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
const EXAMPLE_FAMILY = '6f1c2a4e-0b7d-4d3a-9c55-2f8e1a7b3c90';

/** Refresh tokens (public.refresh_tokens): issued, rotated, revoked by family or by user. */
@Injectable()
export class RefreshTokensRepository {
  @SqlExample((c) => [c.manager, 1, EXAMPLE_HASH, EXAMPLE_FAMILY, new Date('2026-02-01T00:00:00Z')])
  async insert(m: EntityManager, userId: number, tokenHash: string, familyId: string, expiresAt: Date) {
    await m.query(
      'INSERT INTO public.refresh_tokens (user_id, token_hash, family_id, expires_at) VALUES ($1, $2, $3, $4)',
      [userId, tokenHash, familyId, expiresAt],
    );
  }

  /** The token of this hash, its row locked until the transaction ends. */
  @SqlExample((c) => [c.manager, EXAMPLE_HASH])
  async lockByHash(tx: EntityManager, tokenHash: string): Promise<RefreshTokenRow | undefined> {
    const [row] = await tx.query<RefreshTokenRow[]>(
      `SELECT id, user_id, family_id, expires_at, revoked_at, rotated_at
             FROM public.refresh_tokens WHERE token_hash = $1 FOR UPDATE`,
      [tokenHash],
    );
    return row;
  }

  /** The user of a token not revoked, the user's row locked until the transaction ends. */
  @SqlExample((c) => [c.manager, EXAMPLE_HASH])
  async lockHolder(tx: EntityManager, tokenHash: string): Promise<{ id: number; email: string } | null> {
    const [row] = await tx.query(
      `SELECT t.user_id, u.email FROM public.refresh_tokens t JOIN public.users u ON u.id = t.user_id
            WHERE t.token_hash = $1 AND t.revoked_at IS NULL
            FOR UPDATE OF u`,
      [tokenHash],
    );
    return row ? { id: row.user_id, email: row.email } : null;
  }

  @SqlExample((c) => [c.manager, 1])
  async markRotated(tx: EntityManager, id: number): Promise<void> {
    await tx.query('UPDATE public.refresh_tokens SET rotated_at = now() WHERE id = $1', [id]);
  }

  @SqlExample((c) => [c.manager, EXAMPLE_FAMILY])
  async revokeFamily(tx: EntityManager, familyId: string): Promise<void> {
    await tx.query(
      'UPDATE public.refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL',
      [familyId],
    );
  }

  @SqlExample((c) => [c.manager, 1])
  async revokeAllOfUser(m: EntityManager, userId: number): Promise<void> {
    await m.query(
      'UPDATE public.refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL',
      [userId],
    );
  }
}
