import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuditWriter, diffChanges } from '../audit/audit-writer';
import { Principal } from '../auth/principal';
import { AppError } from '../common/errors/app-error';
import { paged } from '../common/pagination/pagination';
import { previousOf } from '../events/domain-event';
import { DomainEvents } from '../events/domain-events';
import { TenantDatabase } from '../tenancy/tenant-database';
import { companyScope, listUnitRecords, rejectNulls, unitReference } from '../units/unit-scope';
import {
  CreateWorkOrderDto,
  UpdateWorkOrderDto,
  WorkOrderDto,
  WorkOrderQueryDto,
} from './dto/work-order.dto';
import { WorkOrder } from './entities/work-order.entity';

const TYPE = 'WorkOrder';
const toView = (w: WorkOrder): WorkOrderDto => ({ ...w });

/** Work orders of units: company-scoped like units, audited, publishing work_order.* events. */
@Injectable()
export class WorkOrdersService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly audit: AuditWriter,
    private readonly events: DomainEvents,
  ) {}

  async list(principal: Principal, q: WorkOrderQueryDto) {
    const [rows, total] = await this.db.run((m) => listUnitRecords(m, WorkOrder, principal, q));
    return paged(rows.map(toView), total, q.page, q.pageSize);
  }

  async get(principal: Principal, id: number) {
    return { data: toView(await this.db.run((m) => this.find(m, principal, id))) };
  }

  async create(principal: Principal, dto: CreateWorkOrderDto) {
    const saved = await this.db.transaction(async (m) => {
      const unit = await unitReference(m, principal, dto.unitId);
      const repo = m.getRepository(WorkOrder);
      const order = await repo.save(
        repo.create({
          ...dto,
          dueDate: dto.dueDate ? new Date(dto.dueDate) : null,
          completedAt: dto.status === 'COMPLETED' ? new Date() : null,
          companyId: unit.companyId,
          createdById: principal.userId,
        }),
      );
      await this.audit.record(m, {
        action: 'CREATE',
        entityType: TYPE,
        entityId: order.id,
        message: `Work order "${order.title}" created`,
        changes: diffChanges(null, order, ['createdAt', 'updatedAt', 'id']),
      });
      await this.publish(m, 'work_order.created', order, null);
      return order;
    });
    return { data: toView(saved) };
  }

  async update(principal: Principal, id: number, dto: UpdateWorkOrderDto) {
    const saved = await this.db.transaction(async (m) => {
      rejectNulls(dto, ['title', 'unitId', 'status', 'priority']);
      const before = await this.find(m, principal, id, true);
      const unit = dto.unitId !== undefined ? await unitReference(m, principal, dto.unitId) : null;
      const next: WorkOrder = { ...before, ...dto, dueDate: before.dueDate };
      if (dto.dueDate !== undefined) next.dueDate = dto.dueDate ? new Date(dto.dueDate) : null;
      if (unit) next.companyId = unit.companyId;
      if (dto.status && dto.status !== before.status) {
        next.completedAt = dto.status === 'COMPLETED' ? new Date() : null;
      }
      const after = await m.getRepository(WorkOrder).save(next);
      const changes = diffChanges(before, after);
      if (!Object.keys(changes).length) return after;
      await this.audit.record(m, {
        action: 'UPDATE',
        entityType: TYPE,
        entityId: id,
        message: `Work order "${after.title}" updated`,
        changes,
      });
      await this.publish(m, 'work_order.updated', after, previousOf(changes));
      if (changes.status) {
        await this.publish(m, 'work_order.status_changed', after, { status: changes.status.old });
      }
      return after;
    });
    return { data: toView(saved) };
  }

  async remove(principal: Principal, id: number) {
    await this.db.transaction(async (m) => {
      const order = await this.find(m, principal, id, true);
      await m.getRepository(WorkOrder).delete({ id });
      await this.audit.record(m, {
        action: 'DELETE',
        entityType: TYPE,
        entityId: id,
        message: `Work order "${order.title}" deleted`,
        changes: diffChanges(order, null, ['createdAt', 'updatedAt']),
      });
      const { title, unitId, status, companyId } = order;
      await this.events.publish(m, {
        event: 'work_order.deleted',
        entityType: TYPE,
        entityId: id,
        companyId,
        attributes: { id, title, unitId, status, companyId },
      });
    });
  }

  private publish(
    m: EntityManager,
    event: string,
    order: WorkOrder,
    previous: Record<string, unknown> | null,
  ) {
    return this.events.publish(m, {
      event,
      entityType: TYPE,
      entityId: order.id,
      companyId: order.companyId,
      attributes: { ...toView(order) },
      previous,
    });
  }

  private async find(m: EntityManager, principal: Principal, id: number, lock = false): Promise<WorkOrder> {
    const scope = companyScope(principal);
    const qb = m.getRepository(WorkOrder).createQueryBuilder('w').where('w.id = :id', { id });
    if (scope !== null) qb.andWhere('w.company_id = :scope', { scope });
    if (lock) qb.setLock('pessimistic_write');
    const order = await qb.getOne();
    if (!order) throw AppError.notFound('Work order');
    return order;
  }
}
