import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuditWriter, diffChanges, FieldChanges } from '../audit/audit-writer';
import { previousOf } from '../events/domain-event';
import { DomainEvents } from '../events/domain-events';

/** An asset record type: its audit entity type and the prefix of its events (`work_order.created`). */
export interface AssetKind {
  entityType: string;
  event: string;
}

interface AssetRecord {
  id: number;
  companyId: number | null;
}

/**
 * What a change of a unit, work order or failure leaves in its transaction: the audit entry and
 * the `{kind}.created|updated|deleted` event, carrying the record's fields as attributes.
 */
@Injectable()
export class AssetChanges {
  constructor(
    private readonly audit: AuditWriter,
    private readonly events: DomainEvents,
  ) {}

  async created(m: EntityManager, kind: AssetKind, record: AssetRecord, message: string) {
    await this.audit.record(m, {
      action: 'CREATE',
      entityType: kind.entityType,
      entityId: record.id,
      message,
      changes: diffChanges(null, record, ['createdAt', 'updatedAt', 'id']),
    });
    await this.publish(m, kind, `${kind.event}.created`, record, null);
  }

  /** Records the fields that differ, if any, and answers them. */
  async updated(
    m: EntityManager,
    kind: AssetKind,
    before: AssetRecord,
    after: AssetRecord,
    message: string,
  ): Promise<FieldChanges> {
    const changes = diffChanges(before, after);
    if (!Object.keys(changes).length) return changes;
    await this.audit.record(m, {
      action: 'UPDATE',
      entityType: kind.entityType,
      entityId: after.id,
      message,
      changes,
    });
    await this.publish(m, kind, `${kind.event}.updated`, after, previousOf(changes));
    return changes;
  }

  /** `attributes`: the essential fields a deletion event carries. */
  async deleted(
    m: EntityManager,
    kind: AssetKind,
    record: AssetRecord,
    message: string,
    attributes: Record<string, unknown>,
  ) {
    await this.audit.record(m, {
      action: 'DELETE',
      entityType: kind.entityType,
      entityId: record.id,
      message,
      changes: diffChanges(record, null, ['createdAt', 'updatedAt']),
    });
    await this.events.publish(m, {
      event: `${kind.event}.deleted`,
      entityType: kind.entityType,
      entityId: record.id,
      companyId: record.companyId,
      attributes,
    });
  }

  publish(
    m: EntityManager,
    kind: AssetKind,
    event: string,
    record: AssetRecord,
    previous: Record<string, unknown> | null,
  ) {
    return this.events.publish(m, {
      event,
      entityType: kind.entityType,
      entityId: record.id,
      companyId: record.companyId,
      attributes: { ...record },
      previous,
    });
  }
}
