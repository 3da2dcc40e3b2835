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
import { WorkOrder } from '../work-orders/entities/work-order.entity';
import { CreateFailureDto, FailureDto, FailureQueryDto, UpdateFailureDto } from './dto/failure.dto';
import { Failure } from './entities/failure.entity';

const TYPE = 'Failure';
const toView = (f: Failure): FailureDto => ({ ...f });

/** Failures of units: company-scoped like units, audited, publishing failure.* events. */
@Injectable()
export class FailuresService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly audit: AuditWriter,
    private readonly events: DomainEvents,
  ) {}

  async list(principal: Principal, q: FailureQueryDto) {
    const [rows, total] = await this.db.run((m) => listUnitRecords(m, Failure, principal, q));
    return paged(rows.map(toView), total, q.page, q.pageSize);
  }

  async get(principal: Principal, id: number) {
    return { data: toView(await this.db.run((m) => this.find(m, principal, id))) };
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
      await this.audit.record(m, {
        action: 'CREATE',
        entityType: TYPE,
        entityId: failure.id,
        message: `Failure "${failure.title}" recorded`,
        changes: diffChanges(null, failure, ['createdAt', 'updatedAt', 'id']),
      });
      await this.publish(m, 'failure.created', failure, null);
      return failure;
    });
    return { data: toView(saved) };
  }

  async update(principal: Principal, id: number, dto: UpdateFailureDto) {
    const saved = await this.db.transaction(async (m) => {
      rejectNulls(dto, ['title', 'unitId', 'severity', 'status']);
      const before = await this.find(m, principal, id, true);
      const unit = dto.unitId !== undefined ? await unitReference(m, principal, dto.unitId) : null;
      const next: Failure = { ...before, ...dto, occurredAt: before.occurredAt };
      if (dto.occurredAt !== undefined) next.occurredAt = dto.occurredAt ? new Date(dto.occurredAt) : null;
      if (unit) next.companyId = unit.companyId;
      if (dto.workOrderId) await this.checkWorkOrder(m, next.companyId, dto.workOrderId);
      if (dto.status && dto.status !== before.status) {
        next.resolvedAt = dto.status === 'RESOLVED' ? new Date() : null;
      }
      const after = await m.getRepository(Failure).save(next);
      const changes = diffChanges(before, after);
      if (!Object.keys(changes).length) return after;
      await this.audit.record(m, {
        action: 'UPDATE',
        entityType: TYPE,
        entityId: id,
        message: `Failure "${after.title}" updated`,
        changes,
      });
      await this.publish(m, 'failure.updated', after, previousOf(changes));
      return after;
    });
    return { data: toView(saved) };
  }

  async remove(principal: Principal, id: number) {
    await this.db.transaction(async (m) => {
      const failure = await this.find(m, principal, id, true);
      await m.getRepository(Failure).delete({ id });
      await this.audit.record(m, {
        action: 'DELETE',
        entityType: TYPE,
        entityId: id,
        message: `Failure "${failure.title}" deleted`,
        changes: diffChanges(failure, null, ['createdAt', 'updatedAt']),
      });
      const { title, unitId, status, companyId } = failure;
      await this.events.publish(m, {
        event: 'failure.deleted',
        entityType: TYPE,
        entityId: id,
        companyId,
        attributes: { id, title, unitId, status, companyId },
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

  private publish(
    m: EntityManager,
    event: string,
    failure: Failure,
    previous: Record<string, unknown> | null,
  ) {
    return this.events.publish(m, {
      event,
      entityType: TYPE,
      entityId: failure.id,
      companyId: failure.companyId,
      attributes: { ...toView(failure) },
      previous,
    });
  }

  private async find(m: EntityManager, principal: Principal, id: number, lock = false): Promise<Failure> {
    const scope = companyScope(principal);
    const qb = m.getRepository(Failure).createQueryBuilder('f').where('f.id = :id', { id });
    if (scope !== null) qb.andWhere('f.company_id = :scope', { scope });
    if (lock) qb.setLock('pessimistic_write');
    const failure = await qb.getOne();
    if (!failure) throw AppError.notFound('Failure');
    return failure;
  }
}
