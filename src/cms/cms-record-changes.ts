// The records layer's change writer, provided by CmsModule for the records service.
export { RecordChanges as CmsRecordChanges } from '../records/record-changes';
