import { Principal } from '../access/principal';
import { ChangeKind } from '../records/record-changes';
import { recordCompany } from './cms-company-scope';
import { CompiledType, ContentRecord } from './content-type.types';

/**
 * How the change writer audits and announces records of `type` written by `writer`: entityType is
 * the collection name, events are `cms.<collection>.<action>`, messages name the record by its id.
 * A company-scoped record's events go to its company; a client-scoped record belongs to no company,
 * so its events go to the writer's. Records carry no private fields, so neither does the audit
 * trail nor an event.
 */
export function contentRecordKind(type: CompiledType, writer: Principal): ChangeKind<ContentRecord> {
  return {
    entityType: type.collectionName,
    event: `cms.${type.collectionName}`,
    label: `${type.collectionName} record`,
    deletedFields: ['id'],
    companyOf: (record) => recordCompany(type, record) ?? writer.companyId,
  };
}
