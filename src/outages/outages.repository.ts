import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Paged } from '../common/pagination/pagination';
import { SqlExample } from '../database/sql-example';
import { recordRows } from '../records/records.repository';
import { OutageEvent } from './entities/outage-event.entity';

type Page = { page: number; pageSize: number };

/** The fixed listings of outages, each in its own order, within a company scope (null: every company). */
@Injectable()
export class OutagesRepository {
  /** ACTIVE outages, latest actual start first, those not started yet last. */
  @SqlExample((c) => [c.manager, 7, { page: 1, pageSize: 25 }])
  active(m: EntityManager, scope: number | null, page: Page): Promise<Paged<OutageEvent>> {
    return recordRows.pageBy(m, OutageEvent, scope, page, (qb) =>
      qb.andWhere("r.status = 'ACTIVE'").orderBy('r.actualStart', 'DESC', 'NULLS LAST'),
    );
  }

  /** Outages of one unit, newest created first. */
  @SqlExample((c) => [c.manager, 7, 1, { page: 1, pageSize: 25 }])
  ofUnit(m: EntityManager, scope: number | null, unitId: number, page: Page): Promise<Paged<OutageEvent>> {
    return recordRows.pageBy(m, OutageEvent, scope, page, (qb) =>
      qb.andWhere('r.unit_id = :unitId', { unitId }).orderBy('r.createdAt', 'DESC'),
    );
  }
}
