import { parseDateTime } from '../common/validation/datetime';
import { Type } from '@nestjs/common';
import { DeepPartial, EntityManager } from 'typeorm';
import { Principal } from '../access/principal';
import { rejectNulls } from '../records/find-scoped';
import { RecordKind, recordKind } from '../records/record-changes';
import { RecordsService } from '../records/records.service';
import { SortedPage } from '../records/sorted-page-query';
import { unitReference } from './unit-reference';

/** A record of a unit (work order, failure): it lives in its unit's company. */
export interface UnitRecord {
  id: number;
  unitId: number;
  status: string;
  companyId: number | null;
  createdById: number | null;
}

/** The body fields every unit record takes. */
export interface UnitRecordInput {
  unitId?: number;
  status?: string;
}

export interface UnitRecordQuery extends SortedPage {
  status?: string;
  unitId?: number;
}

/** How a kind of unit record derives its fields. */
export interface UnitRecordKind<E extends UnitRecord> extends RecordKind<E> {
  /** Fields PUT may not set to null. */
  required: (keyof E & string)[];
  /** A datetime taken from the body as ISO text. */
  dateField: keyof E & string;
  /** Set to now when the record enters `status`, cleared when it leaves it (completedAt on COMPLETED). */
  closedAt: { field: keyof E & string; status: string };
}

/** A unit record's kind: named by its title, its deletion event carrying its unit and status. */
export function unitRecordKind<E extends UnitRecord & { title: string }>(
  entity: Type<E>,
  o: Omit<UnitRecordKind<E>, keyof RecordKind<E>> & Partial<RecordKind<E>>,
): UnitRecordKind<E> {
  const deletedFields: (keyof E & string)[] = ['id', 'title', 'unitId', 'status', 'companyId'];
  return { ...recordKind(entity, { nameField: 'title', deletedFields }), ...o };
}

/**
 * Work orders and failures: company-scoped through their unit (400 naming `unitId` for a unit the
 * caller may not see), listed by status and unit, stamped when they close.
 */
export abstract class UnitRecordsService<E extends UnitRecord> extends RecordsService<E> {
  protected abstract override readonly kind: UnitRecordKind<E>;

  list(principal: Principal, q: UnitRecordQuery) {
    return this.listRecords(principal, q, { status: q.status, unitId: q.unitId });
  }

  /** `check` sees the body against the unit's company before the insert (further references). */
  protected async createFor(
    principal: Principal,
    dto: UnitRecordInput & { unitId: number },
    check?: (m: EntityManager, companyId: number | null) => Promise<void>,
  ) {
    const data = await this.db.transaction(async (m) => {
      const unit = await unitReference(m, principal, dto.unitId);
      await check?.(m, unit.companyId);
      const { dateField, closedAt } = this.kind;
      const given = dateOf(dto, dateField);
      return this.insert(m, {
        ...dto,
        [dateField]: given ? parseDateTime(given) : null,
        [closedAt.field]: dto.status === closedAt.status ? new Date() : null,
        companyId: unit.companyId,
        createdById: principal.userId,
      } as DeepPartial<E>);
    });
    return { data };
  }

  protected updateFor(
    principal: Principal,
    id: number,
    dto: UnitRecordInput,
    check?: (m: EntityManager, companyId: number | null) => Promise<void>,
  ) {
    rejectNulls(dto, this.kind.required);
    return this.change(principal, id, async (m, before) => {
      const unit = dto.unitId !== undefined ? await unitReference(m, principal, dto.unitId) : null;
      const { dateField, closedAt } = this.kind;
      const next = { ...before, ...dto } as Record<string, unknown>;
      const given = dateOf(dto, dateField);
      next[dateField] = given === undefined ? before[dateField] : given ? parseDateTime(given) : null;
      if (unit) next.companyId = unit.companyId;
      await check?.(m, next.companyId as number | null);
      if (dto.status && dto.status !== before.status) {
        next[closedAt.field] = dto.status === closedAt.status ? new Date() : null;
      }
      return next as E;
    });
  }
}

/** The datetime text a body gives for `field`: undefined when absent, null when cleared. */
const dateOf = (dto: object, field: string) => (dto as Record<string, string | null | undefined>)[field];
