import { Injectable } from '@nestjs/common';
import { DeepPartial, EntityManager, EntityTarget, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { companyWhere } from '../access/company-rule';
import { paged, Paged } from '../common/pagination/pagination';
import { SqlExample } from '../database/sql-example';

/** The examples read the `Unit` entity (by name: the kernel names no feature's class). */
const EXAMPLE = 'Unit';
type Shape<E extends ObjectLiteral> = (qb: SelectQueryBuilder<E>) => void;
const activeFirst: Shape<ObjectLiteral> = (qb) =>
  qb.andWhere("r.status = 'OPERATIONAL'").orderBy('r.createdAt', 'DESC', 'NULLS LAST');

/**
 * The records layer's statements over an entity class (built-in record types): one record in a
 * company, a page in the resource's own order, inserts, saves and deletes, all in the caller's
 * manager. It holds no state, so the layer's helpers (`findScoped`, `findReference`) share
 * `recordRows`; modules reach it as a provider of `RecordsModule`.
 */
@Injectable()
export class RecordsRepository {
  /** One record by id within `companyId` (null: any), locked for update when `lock`; null when none. */
  @SqlExample((c) => [c.manager, EXAMPLE, 1, 7, false])
  @SqlExample((c) => [c.manager, EXAMPLE, 1, null, true])
  byId<E extends ObjectLiteral>(
    m: EntityManager,
    entity: EntityTarget<E>,
    id: number,
    companyId: number | null,
    lock: boolean,
  ): Promise<E | null> {
    const qb = m.getRepository(entity).createQueryBuilder('r').where('r.id = :id', { id });
    if (companyId !== null) qb.andWhere(companyWhere(companyId));
    if (lock) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  /**
   * One page within `companyId` (null: any) whose conditions and order `shape` adds (alias `r`),
   * ties broken by id, newest first; soft-deleted records are left out.
   */
  @SqlExample((c) => [c.manager, EXAMPLE, 7, { page: 2, pageSize: 25 }, activeFirst])
  async pageBy<E extends ObjectLiteral>(
    m: EntityManager,
    entity: EntityTarget<E>,
    companyId: number | null,
    page: { page: number; pageSize: number },
    shape: Shape<E>,
  ): Promise<Paged<E>> {
    const qb = m.getRepository(entity).createQueryBuilder('r');
    if (companyId !== null) qb.andWhere(companyWhere(companyId));
    shape(qb);
    const [rows, total] = await qb
      .addOrderBy('r.id', 'DESC')
      .skip((page.page - 1) * page.pageSize)
      .take(page.pageSize)
      .getManyAndCount();
    return paged(rows, total, page.page, page.pageSize);
  }

  /** Inserts a record and answers it as saved, without the columns a read never shows. */
  @SqlExample((c) => [c.manager, EXAMPLE, { name: 'GT-1', status: 'OPERATIONAL', companyId: 1 }])
  async insert<E extends ObjectLiteral>(
    m: EntityManager,
    entity: EntityTarget<E>,
    values: DeepPartial<E>,
  ): Promise<E> {
    const repo = m.getRepository(entity);
    const record = await repo.save(repo.create(values));
    for (const column of repo.metadata.columns.filter((c) => !c.isSelect)) {
      delete (record as Record<string, unknown>)[column.propertyName];
    }
    return record;
  }

  /** Saves a record's next state and answers it. */
  @SqlExample((c) => [c.manager, EXAMPLE, { id: 1, name: 'GT-1', status: 'MAINTENANCE' }])
  save<E extends ObjectLiteral>(m: EntityManager, entity: EntityTarget<E>, record: E): Promise<E> {
    return m.getRepository(entity).save(record);
  }

  /** Deletes a record: softly when its entity has a `@DeleteDateColumn`. */
  @SqlExample((c) => [c.manager, EXAMPLE, 1])
  async remove<E extends ObjectLiteral>(
    m: EntityManager,
    entity: EntityTarget<E>,
    id: number,
  ): Promise<void> {
    const repo = m.getRepository(entity);
    if (repo.metadata.deleteDateColumn) await repo.softDelete(id);
    else await repo.delete(id);
  }
}

/** The one instance the records layer's helpers use (it has no state). */
export const recordRows = new RecordsRepository();
