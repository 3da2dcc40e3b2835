import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuditWriter, diffChanges } from '../audit-trail/audit-writer';
import { Principal } from '../access/principal';
import { DomainEvents } from '../events/domain-events';
import { CompiledType } from './content-type.types';

type Row = Record<string, unknown>;

/**
 * The audit entry (entityType = collection name) and the `cms.<collection>.<action>` event of a
 * record change, written with the manager of the change's transaction. Records carry no private
 * fields, so neither does the audit trail nor an event.
 */
@Injectable()
export class CmsRecordChanges {
  constructor(
    private readonly audit: AuditWriter,
    private readonly events: DomainEvents,
  ) {}

  async created(m: EntityManager, principal: Principal, type: CompiledType, record: Row) {
    await this.audit.record(m, {
      action: 'CREATE',
      entityType: type.collectionName,
      entityId: record.id as number,
      message: `${type.collectionName} record ${String(record.id)} created`,
      changes: diffChanges(null, record, ['createdAt', 'updatedAt', 'id']),
    });
    await this.emit(m, principal, type, 'created', record, null);
  }

  /** An update, publish or unpublish (`action`); nothing when no field changed. */
  async updated(
    m: EntityManager,
    principal: Principal,
    type: CompiledType,
    before: Row,
    after: Row,
    action: string,
  ) {
    const changes = diffChanges(before, after);
    if (!Object.keys(changes).length) return;
    await this.audit.record(m, {
      action: 'UPDATE',
      entityType: type.collectionName,
      entityId: after.id as number,
      message: `${type.collectionName} record ${String(after.id)} ${action}`,
      changes,
    });
    const previous = Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, v.old]));
    await this.emit(m, principal, type, action, after, previous);
  }

  async deleted(m: EntityManager, principal: Principal, type: CompiledType, before: Row) {
    await this.audit.record(m, {
      action: 'DELETE',
      entityType: type.collectionName,
      entityId: before.id as number,
      message: `${type.collectionName} record ${String(before.id)} deleted`,
      changes: diffChanges(before, null, ['createdAt', 'updatedAt']),
    });
    await this.events.publish(m, {
      event: `cms.${type.collectionName}.deleted`,
      entityType: type.collectionName,
      entityId: before.id as number,
      companyId: principal.companyId,
      attributes: { id: before.id },
    });
  }

  private emit(
    m: EntityManager,
    principal: Principal,
    type: CompiledType,
    action: string,
    record: Row,
    previous: Row | null,
  ) {
    return this.events.publish(m, {
      event: `cms.${type.collectionName}.${action}`,
      entityType: type.collectionName,
      entityId: record.id as number,
      companyId: principal.companyId,
      attributes: record,
      previous,
    });
  }
}
