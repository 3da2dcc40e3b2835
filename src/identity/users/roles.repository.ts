import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DEFAULT_PERMISSIONS } from '../../access/permissions';
import { ROLE_NAMES, ROLE_TYPES, RoleType } from '../../access/roles';
import { SqlExample } from '../../database/sql-example';
import { Role } from './entities/role.entity';

/** The five roles of a client. Every method runs on the manager it is given (the seeder has no app). */
@Injectable()
export class RolesRepository {
  @SqlExample((c) => [c.manager])
  list(m: EntityManager): Promise<Role[]> {
    return m.getRepository(Role).find({ order: { id: 'ASC' } });
  }

  @SqlExample((c) => [c.manager, 1])
  findById(m: EntityManager, id: number): Promise<Role | null> {
    return m.getRepository(Role).findOneBy({ id });
  }

  /** The role, its row locked until the transaction ends. */
  @SqlExample((c) => [c.manager, 1])
  lockById(tx: EntityManager, id: number): Promise<Role | null> {
    return tx.getRepository(Role).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  @SqlExample((c) => [c.manager, EXAMPLE_ROLE])
  save(tx: EntityManager, role: Role): Promise<Role> {
    return tx.getRepository(Role).save(role);
  }

  @SqlExample((c) => [c.manager, 'VIEWER'])
  async idOfType(m: EntityManager, type: RoleType): Promise<number | null> {
    const [row] = await m.query('SELECT id FROM public.roles WHERE type = $1', [type]);
    return row?.id ?? null;
  }

  /** Adds each of the five roles that is missing, with its default permissions. */
  @SqlExample((c) => [c.manager])
  async insertDefaults(m: EntityManager): Promise<void> {
    for (const type of ROLE_TYPES) {
      await m.query(
        `INSERT INTO public.roles (name, type, description, permissions) VALUES ($1, $2, $3, $4)
       ON CONFLICT (type) DO NOTHING`,
        [ROLE_NAMES[type], type, `${ROLE_NAMES[type]} (default)`, DEFAULT_PERMISSIONS[type]],
      );
    }
  }
}

const EXAMPLE_ROLE: Role = Object.assign(new Role(), {
  id: 5,
  name: 'Viewer',
  type: 'VIEWER',
  description: 'Viewer (default)',
  permissions: ['units:read'],
  createdAt: new Date('2026-01-01T00:00:00Z'),
  updatedAt: new Date('2026-01-01T00:00:00Z'),
});
