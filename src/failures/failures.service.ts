import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Principal } from '../access/principal';
import { findReference } from '../records/find-scoped';
import { unitRecordKind, UnitRecordsService } from '../units';
import { WorkOrder } from '../work-orders';
import { CreateFailureDto, UpdateFailureDto } from './dto/failure.dto';
import { Failure } from './entities/failure.entity';
import { FAILURE_TYPE } from './failure.record-type';

const KIND = unitRecordKind(Failure, {
  createdVerb: 'recorded',
  required: ['title', 'unitId', 'severity', 'status'],
  dateField: 'occurredAt',
  closedAt: { field: 'resolvedAt', status: 'RESOLVED' },
});

/** Failures of units: company-scoped like units, audited, publishing failure.* events. */
@Injectable()
export class FailuresService extends UnitRecordsService<Failure> {
  protected readonly kind = KIND;
  protected readonly type = FAILURE_TYPE;

  create(principal: Principal, dto: CreateFailureDto) {
    return this.createFor(
      principal,
      { ...dto, workOrderId: dto.workOrderId ?? null } as CreateFailureDto,
      (m, companyId) => this.checkWorkOrder(m, companyId, dto.workOrderId),
    );
  }

  update(principal: Principal, id: number, dto: UpdateFailureDto) {
    return this.updateFor(principal, id, dto, (m, companyId) =>
      this.checkWorkOrder(m, companyId, dto.workOrderId),
    );
  }

  /** The work order a failure names must be one of its unit's company (any, for a unit without one). */
  private async checkWorkOrder(m: EntityManager, companyId: number | null, workOrderId?: number | null) {
    if (!workOrderId) return;
    const ref = { entity: WorkOrder, field: 'workOrderId', names: 'a work order of this company', companyId };
    await findReference(m, ref, workOrderId);
  }
}
