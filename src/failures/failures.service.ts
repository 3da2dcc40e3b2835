import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Principal } from '../auth/principal';
import { AppError } from '../common/errors/app-error';
import { paged } from '../common/pagination/pagination';
import { TenantDatabase } from '../tenancy/tenant-database';
import { AssetChanges } from '../units/asset-changes';
import { findScoped, listUnitRecords, rejectNulls, unitReference } from '../units/unit-scope';
import { WorkOrder } from '../work-orders/entities/work-order.entity';
import { CreateFailureDto, FailureDto, FailureQueryDto, UpdateFailureDto } from './dto/failure.dto';
import { Failure } from './entities/failure.entity';

const KIND = { entityType: 'Failure', event: 'failure' };
const toView = (f: Failure): FailureDto => ({ ...f });

/** Failures of units: company-scoped like units, audited, publishing failure.* events. */
@Injectable()
export class FailuresService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly changes: AssetChanges,
  ) {}

  async list(principal: Principal, q: FailureQueryDto) {
    const [rows, total] = await this.db.run((m) => listUnitRecords(m, Failure, principal, q));
    return paged(rows.map(toView), total, q.page, q.pageSize);
  }

  async get(principal: Principal, id: number) {
    return { data: toView(await this.db.run((m) => findScoped(m, Failure, 'Failure', principal, id))) };
  }

  async create(principal: Principal, dto: CreateFailureDto) {
    const saved = await this.db.transaction(async (m) => {
      const unit = await unitReference(m, principal, dto.unitId);
      if (dto.workOrderId) await this.checkWorkOrder(m, unit.companyId, dto.workOrderId);
      const repo = m.getRepository(Failure);
      const failure = await repo.save(
        repo.create({
          ...dto,
          workOrderId: dto.workOrderId ?? null,
          occurredAt: dto.occurredAt ? new Date(dto.occurredAt) : null,
          resolvedAt: dto.status === 'RESOLVED' ? new Date() : null,
          companyId: unit.companyId,
          createdById: principal.userId,
        }),
      );
      await this.changes.created(m, KIND, failure, `Failure "${failure.title}" recorded`);
      return failure;
    });
    return { data: toView(saved) };
  }

  async update(principal: Principal, id: number, dto: UpdateFailureDto) {
    const saved = await this.db.transaction(async (m) => {
      rejectNulls(dto, ['title', 'unitId', 'severity', 'status']);
      const before = await findScoped(m, Failure, 'Failure', principal, id, true);
      const unit = dto.unitId !== undefined ? await unitReference(m, principal, dto.unitId) : null;
      const next: Failure = { ...before, ...dto, occurredAt: before.occurredAt };
      if (dto.occurredAt !== undefined) next.occurredAt = dto.occurredAt ? new Date(dto.occurredAt) : null;
      if (unit) next.companyId = unit.companyId;
      if (dto.workOrderId) await this.checkWorkOrder(m, next.companyId, dto.workOrderId);
      if (dto.status && dto.status !== before.status) {
        next.resolvedAt = dto.status === 'RESOLVED' ? new Date() : null;
      }
      const after = await m.getRepository(Failure).save(next);
      await this.changes.updated(m, KIND, before, after, `Failure "${after.title}" updated`);
      return after;
    });
    return { data: toView(saved) };
  }

  async remove(principal: Principal, id: number) {
    await this.db.transaction(async (m) => {
      const failure = await findScoped(m, Failure, 'Failure', principal, id, true);
      await m.getRepository(Failure).delete({ id });
      const { title, unitId, status, companyId } = failure;
      await this.changes.deleted(m, KIND, failure, `Failure "${title}" deleted`, {
        id,
        title,
        unitId,
        status,
        companyId,
      });
    });
  }

  private async checkWorkOrder(m: EntityManager, companyId: number | null, workOrderId: number) {
    const order = await m.getRepository(WorkOrder).findOneBy({ id: workOrderId });
    if (!order || (companyId !== null && order.companyId !== companyId)) {
      throw AppError.validation([
        {
          field: 'workOrderId',
          message: `workOrderId ${workOrderId} does not name a work order of this company`,
        },
      ]);
    }
  }
}
