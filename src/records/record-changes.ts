import { Injectable, Type } from '@nestjs/common';
import { EntityManager, EntityTarget } from 'typeorm';
import { AuditWriter, diffChanges, FieldChanges } from '../audit-trail/audit-writer';
import { Principal } from '../access/principal';
import { previousOf } from '../events/domain-event';
import { DomainEvents } from '../events/domain-events';
import { findScoped } from './find-scoped';
import { recordRows } from './records.repository';
import { applyMove, MoveTable } from './transitions';

/** A record the change writer can audit: it has an id. */
export interface ChangedRecord {
  id: number;
}

/** A company-scoped record: an id and the company it belongs to. */
export interface ScopedRecord extends ChangedRecord {
  companyId: number | null;
}

/**
 * What the change writer needs of a record type. It names no entity class, so a type defined at
 * runtime (a content type) is one as well.
 */
export interface ChangeKind<E extends ChangedRecord = ChangedRecord> {
  /** Audit `entityType` and the event's `data.type` (`WorkOrder`). */
  entityType: string;
  /** Event prefix (`work_order`). */
  event: string;
  /** The record in words, for messages and 404s (`Work order`). */
  label: string;
  /**
   * The field that names a record in messages: `Work order "Replace nozzle"`; without one the id
   * does: `articles record 7`.
   */
  nameField?: keyof E & string;
  /** The essential fields a deletion event carries. */
  deletedFields: (keyof E & string)[];
  /** The company whose webhooks hear of a change of `record`. */
  companyOf: (record: E) => number | null;
  /** The verb of the creation message (`recorded`); default `created`. */
  createdVerb?: string;
  /** Also publish `{event}.status_changed` (previous `{ status }`) when an update changes `status`. */
  statusChanged?: boolean;
}

/** A record type backed by an entity class, which `removed` and `move` load and save through. */
export interface RecordKind<E extends ScopedRecord = ScopedRecord> extends ChangeKind<E> {
  entity: EntityTarget<E>;
  nameField: keyof E & string;
}

type KindOptions<E extends ScopedRecord> = Pick<RecordKind<E>, 'nameField' | 'deletedFields'> &
  Partial<RecordKind<E>>;

/**
 * A record type with what its entity class says by default: entityType `WorkOrder`, event prefix
 * `work_order`, label `Work order`.
 */
export function recordKind<E extends ScopedRecord>(entity: Type<E>, o: KindOptions<E>): RecordKind<E> {
  const words = entity.name.replace(/(?<=[a-z0-9])([A-Z])/g, ' $1').toLowerCase();
  return {
    entity,
    entityType: entity.name,
    event: words.replace(/ /g, '_'),
    label: words.charAt(0).toUpperCase() + words.slice(1),
    companyOf: (record) => record.companyId,
    ...o,
  };
}

const describe = <E extends ChangedRecord>(kind: ChangeKind<E>, record: E) =>
  kind.nameField ? `${kind.label} "${String(record[kind.nameField])}"` : `${kind.label} ${record.id}`;

/**
 * The one way to audit and publish a change of a record: each method writes the audit entry and
 * the `{event}.created|updated|deleted` (or the move's) event in the transaction of the change,
 * so both go out with its commit or not at all. Events carry the record's fields as attributes.
 */
@Injectable()
export class RecordChanges {
  constructor(
    private readonly audit: AuditWriter,
    private readonly events: DomainEvents,
  ) {}

  async created<E extends ChangedRecord>(m: EntityManager, kind: ChangeKind<E>, record: E, message?: string) {
    await this.audit.record(m, {
      action: 'CREATE',
      entityType: kind.entityType,
      entityId: record.id,
      message: message ?? `${describe(kind, record)} ${kind.createdVerb ?? 'created'}`,
      changes: diffChanges(null, record, ['createdAt', 'updatedAt', 'id']),
    });
    await this.publish(m, kind, `${kind.event}.created`, record, null);
  }

  /**
   * Records the fields that differ, if any, and answers them. `verb` names the change in the audit
   * message (`published`); `event` is the event it publishes.
   */
  async updated<E extends ChangedRecord>(
    m: EntityManager,
    kind: ChangeKind<E>,
    before: E,
    after: E,
    event = `${kind.event}.updated`,
    verb = 'updated',
  ): Promise<FieldChanges> {
    const changes = diffChanges(before, after);
    if (!Object.keys(changes).length) return changes;
    await this.audit.record(m, {
      action: 'UPDATE',
      entityType: kind.entityType,
      entityId: after.id,
      message: `${describe(kind, after)} ${verb}`,
      changes,
    });
    await this.publish(m, kind, event, after, previousOf(changes));
    if (kind.statusChanged && changes.status) {
      await this.publish(m, kind, `${kind.event}.status_changed`, after, { status: changes.status.old });
    }
    return changes;
  }

  /** Deletes the record (softly when its entity has a `@DeleteDateColumn`), audited and published. */
  async removed<E extends ScopedRecord>(m: EntityManager, kind: RecordKind<E>, record: E) {
    await recordRows.remove(m, kind.entity, record.id);
    await this.deleted(m, kind, record);
  }

  /** The audit entry and `{event}.deleted` event of a record the caller has just deleted. */
  async deleted<E extends ChangedRecord>(m: EntityManager, kind: ChangeKind<E>, record: E) {
    await this.audit.record(m, {
      action: 'DELETE',
      entityType: kind.entityType,
      entityId: record.id,
      message: `${describe(kind, record)} deleted`,
      changes: diffChanges(record, null, ['createdAt', 'updatedAt']),
    });
    const attributes = Object.fromEntries(kind.deletedFields.map((field) => [field, record[field]]));
    await this.events.publish(m, {
      event: `${kind.event}.deleted`,
      entityType: kind.entityType,
      entityId: record.id,
      companyId: kind.companyOf(record),
      attributes,
    });
  }

  /**
   * A named move of the table (approve, complete, ...) on the record the caller may see: locks it,
   * checks role and state (403, 409 `INVALID_TRANSITION`), saves the new state and stamps, audits
   * an UPDATE with the change and publishes the move's event with the previous values.
   */
  async move<E extends ScopedRecord, I>(
    m: EntityManager,
    kind: RecordKind<E>,
    table: MoveTable<E>,
    name: string,
    target: { principal: Principal; id: number; input?: I },
  ): Promise<E> {
    const move = table[name];
    if (!move) throw new Error(`${kind.entityType} has no move ${name}`);
    const before = await findScoped(m, kind.entity, kind.label, target.principal, target.id, true);
    const next = applyMove(move, name, before, {
      principal: target.principal,
      now: new Date(),
      input: target.input,
    });
    const after = await recordRows.save(m, kind.entity, next);
    await this.updated(m, kind, before, after, move.event);
    return after;
  }

  publish<E extends ChangedRecord>(
    m: EntityManager,
    kind: ChangeKind<E>,
    event: string,
    record: E,
    previous: Record<string, unknown> | null,
  ) {
    return this.events.publish(m, {
      event,
      entityType: kind.entityType,
      entityId: record.id,
      companyId: kind.companyOf(record),
      attributes: { ...record } as Record<string, unknown>,
      previous,
    });
  }
}
