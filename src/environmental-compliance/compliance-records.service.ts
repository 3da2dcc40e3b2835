import { Injectable } from '@nestjs/common';
import { DeepPartial } from 'typeorm';
import { Principal } from '../access/principal';
import { withDates } from '../common/validation/datetime';
import { checkReferences, ReferenceField } from '../records/check-references';
import { ensureOrdered, OrderedPair } from '../records/ordered-fields';
import { RecordChanges, ScopedRecord } from '../records/record-changes';
import { RecordEngine } from '../records/engine/record-engine';
import { TenantDatabase } from '../tenancy/tenant-database';
import { ComplianceRepository } from './compliance.repository';
import { RecordsService } from '../records/records.service';

/** What a compliance resource's body carries besides plain values. */
export interface ComplianceRules {
  /** Datetime fields read as ISO text (no zone = UTC). */
  dates: readonly string[];
  /** Pairs whose end may not precede their start (400 naming the end). */
  order: OrderedPair[];
  /** Body fields naming records of the company (400 naming the field). */
  references: readonly ReferenceField[];
}

/**
 * Permits, obligations and submissions: one create path (dates read, order checked, references
 * checked against the caller's company, the record inserted in that company, audited and published).
 */
@Injectable()
export abstract class ComplianceRecordsService<E extends ScopedRecord> extends RecordsService<E> {
  protected abstract readonly rules: ComplianceRules;

  constructor(
    db: TenantDatabase,
    changes: RecordChanges,
    engine: RecordEngine,
    protected readonly compliance: ComplianceRepository,
  ) {
    super(db, changes, engine);
  }

  async create(principal: Principal, dto: object) {
    const data = await this.db.transaction(async (m) => {
      const values = withDates(dto, this.rules.dates);
      ensureOrdered(values, this.rules.order);
      await checkReferences(m, principal, dto, this.rules.references);
      return this.insert(m, { ...values, companyId: principal.companyId } as DeepPartial<E>);
    });
    return { data };
  }
}
