import { Injectable } from '@nestjs/common';
import { Principal } from '../auth/principal';
import { paged } from '../common/pagination/pagination';
import { TenantDatabase } from '../tenancy/tenant-database';
import { AssetChanges } from '../units/asset-changes';
import { findScoped, listUnitRecords, rejectNulls, unitReference } from '../units/unit-scope';
import {
  CreateWorkOrderDto,
  UpdateWorkOrderDto,
  WorkOrderDto,
  WorkOrderQueryDto,
} from './dto/work-order.dto';
import { WorkOrder } from './entities/work-order.entity';

const KIND = { entityType: 'WorkOrder', event: 'work_order' };
const toView = (w: WorkOrder): WorkOrderDto => ({ ...w });

/** Work orders of units: company-scoped like units, audited, publishing work_order.* events. */
@Injectable()
export class WorkOrdersService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly changes: AssetChanges,
  ) {}

  async list(principal: Principal, q: WorkOrderQueryDto) {
    const [rows, total] = await this.db.run((m) => listUnitRecords(m, WorkOrder, principal, q));
    return paged(rows.map(toView), total, q.page, q.pageSize);
  }

  async get(principal: Principal, id: number) {
    return { data: toView(await this.db.run((m) => findScoped(m, WorkOrder, 'Work order', principal, id))) };
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
      await this.changes.created(m, KIND, order, `Work order "${order.title}" created`);
      return order;
    });
    return { data: toView(saved) };
  }

  async update(principal: Principal, id: number, dto: UpdateWorkOrderDto) {
    const saved = await this.db.transaction(async (m) => {
      rejectNulls(dto, ['title', 'unitId', 'status', 'priority']);
      const before = await findScoped(m, WorkOrder, 'Work order', principal, id, true);
      const unit = dto.unitId !== undefined ? await unitReference(m, principal, dto.unitId) : null;
      const next: WorkOrder = { ...before, ...dto, dueDate: before.dueDate };
      if (dto.dueDate !== undefined) next.dueDate = dto.dueDate ? new Date(dto.dueDate) : null;
      if (unit) next.companyId = unit.companyId;
      if (dto.status && dto.status !== before.status) {
        next.completedAt = dto.status === 'COMPLETED' ? new Date() : null;
      }
      const after = await m.getRepository(WorkOrder).save(next);
      const changes = await this.changes.updated(
        m,
        KIND,
        before,
        after,
        `Work order "${after.title}" updated`,
      );
      if (changes.status) {
        await this.changes.publish(m, KIND, 'work_order.status_changed', after, {
          status: changes.status.old,
        });
      }
      return after;
    });
    return { data: toView(saved) };
  }

  async remove(principal: Principal, id: number) {
    await this.db.transaction(async (m) => {
      const order = await findScoped(m, WorkOrder, 'Work order', principal, id, true);
      await m.getRepository(WorkOrder).delete({ id });
      const { title, unitId, status, companyId } = order;
      await this.changes.deleted(m, KIND, order, `Work order "${title}" deleted`, {
        id,
        title,
        unitId,
        status,
        companyId,
      });
    });
  }
}
