import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlExample } from '../../database/sql-example';
import { Sandbox } from '../../tenancy/entities/sandbox.entity';

/** The sandboxes granted to users (user_sandboxes) and the sandboxes a login names. */
@Injectable()
export class SandboxGrantsRepository {
  /** True when the user created the sandbox of `schema` or was granted it. */
  @SqlExample((c) => [c.manager, 1, 'sandbox_demo'])
  async reachable(m: EntityManager, userId: number, schema: string): Promise<boolean> {
    const rows = await m.query(
      `SELECT 1 FROM public.sandboxes s
        WHERE s.schema_name = $2
          AND (s.created_by_id = $1
               OR EXISTS (SELECT 1 FROM public.user_sandboxes us WHERE us.sandbox_id = s.id AND us.user_id = $1))`,
      [userId, schema],
    );
    return rows.length > 0;
  }

  @SqlExample((c) => [c.manager, 'sandbox_demo'])
  findBySchema(m: EntityManager, schemaName: string): Promise<Sandbox | null> {
    return m.getRepository(Sandbox).findOneBy({ schemaName });
  }

  /** Which of `ids` name a sandbox. */
  @SqlExample((c) => [c.manager, [1, 2]])
  async existingSandboxIds(m: EntityManager, ids: number[]): Promise<number[]> {
    const rows: { id: number }[] = await m.query('SELECT id FROM public.sandboxes WHERE id = ANY($1)', [ids]);
    return rows.map((r) => r.id);
  }

  /** The sandboxes granted to the user, by id. */
  @SqlExample((c) => [c.manager, 1])
  async grantedTo(m: EntityManager, userId: number): Promise<number[]> {
    const rows: { sandbox_id: number }[] = await m.query(
      'SELECT sandbox_id FROM public.user_sandboxes WHERE user_id = $1 ORDER BY sandbox_id',
      [userId],
    );
    return rows.map((r) => r.sandbox_id);
  }

  /** The user is granted exactly `sandboxIds` from now on. */
  @SqlExample((c) => [c.manager, 1, []])
  async replace(tx: EntityManager, userId: number, sandboxIds: number[]): Promise<void> {
    await tx.query('DELETE FROM public.user_sandboxes WHERE user_id = $1', [userId]);
    await tx.query('INSERT INTO public.user_sandboxes (user_id, sandbox_id) SELECT $1, unnest($2::int[])', [
      userId,
      sandboxIds,
    ]);
  }
}
