import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlExample } from '../database/sql-example';
import { Sandbox } from '../tenancy/entities/sandbox.entity';
import { TenantDatabase } from '../tenancy/tenant-database';

/** A new sandbox row (its schema is created beside it). */
export type NewSandbox = Pick<Sandbox, 'name' | 'slug' | 'description' | 'schemaName' | 'createdById'>;

/** The client's sandboxes (`sandboxes`, identity-level: `public` only). */
@Injectable()
export class SandboxesRepository {
  constructor(private readonly db: TenantDatabase) {}

  @SqlExample()
  all(): Promise<Sandbox[]> {
    return this.db.production((m) => m.getRepository(Sandbox).find({ order: { id: 'ASC' } }));
  }

  /** The sandboxes a user created or was given. */
  @SqlExample([3])
  usableBy(userId: number): Promise<Sandbox[]> {
    return this.db.production((m) =>
      m
        .getRepository(Sandbox)
        .createQueryBuilder('s')
        .where(
          's.created_by_id = :uid OR EXISTS (SELECT 1 FROM user_sandboxes us WHERE us.sandbox_id = s.id AND us.user_id = :uid)',
          { uid: userId },
        )
        .orderBy('s.id')
        .getMany(),
    );
  }

  @SqlExample()
  count(): Promise<number> {
    return this.db.production((m) => m.getRepository(Sandbox).count());
  }

  /** Whether a sandbox has this slug or schema already. */
  @SqlExample(['qa', 'sandbox_qa'])
  taken(slug: string, schemaName: string): Promise<boolean> {
    return this.db.production((m) => m.getRepository(Sandbox).exists({ where: [{ slug }, { schemaName }] }));
  }

  @SqlExample((c) => [
    c.manager,
    { name: 'QA', slug: 'qa', description: null, schemaName: 'sandbox_qa', createdById: 3 },
  ])
  insert(m: EntityManager, sandbox: NewSandbox): Promise<Sandbox> {
    return m.getRepository(Sandbox).save(sandbox);
  }
}
