export interface EventType {
  code: string;
  group: string;
  description: string;
}

const crud = (group: string, resource: string, label: string, extra: [string, string][] = []) => [
  ...(['created', 'updated', 'deleted'] as const).map((action) => ({
    code: `${resource}.${action}`,
    group,
    description: `A ${label} was ${action}`,
  })),
  ...extra.map(([action, description]) => ({ code: `${resource}.${action}`, group, description })),
];
const only = (group: string, items: [string, string][]) =>
  items.map(([code, description]) => ({ code, group, description }));

/** Collection-scoped codes of custom-table records: `cms.<collection>.<action>`. */
export const CMS_ACTIONS = ['created', 'updated', 'deleted', 'published', 'unpublished'] as const;
const CMS_EVENT = new RegExp(`^cms\\.[a-z][a-z0-9_]{0,62}\\.(${CMS_ACTIONS.join('|')})$`);

/** Every event a webhook can subscribe to, platform and operational modules alike (docs/webhooks.md). */
export const EVENT_TYPES: EventType[] = [
  { code: '*', group: 'All', description: 'Every event' },
  { code: 'webhook.ping', group: 'Webhooks', description: 'Test delivery sent from the administration' },
  ...crud('Assets', 'location', 'location'),
  ...crud('Assets', 'unit', 'unit'),
  ...crud('Assets', 'component', 'component'),
  ...crud('Maintenance', 'inspection', 'inspection'),
  ...crud('Maintenance', 'intervention', 'intervention'),
  ...crud('Maintenance', 'work_order', 'work order', [
    ['status_changed', 'The status of a work order changed'],
  ]),
  ...crud('Maintenance', 'failure', 'failure'),
  ...only('Monitoring', [
    ['alert.created', 'An alert was raised'],
    ['alert.updated', 'An alert was updated'],
    ['alert.acknowledged', 'An alert was acknowledged'],
    ['alert.resolved', 'An alert was resolved'],
  ]),
  ...crud('Monitoring', 'sensor', 'sensor', [['reading_received', 'A sensor reading was received']]),
  ...crud('Lifecycle', 'asset_lifecycle', 'asset lifecycle record'),
  ...only('Lifecycle', [
    ['maintenance_plan.created', 'A maintenance plan was created'],
    ['maintenance_plan.updated', 'A maintenance plan was updated'],
    ['maintenance_plan.due', 'A maintenance plan came due'],
    ['spare_part.low_stock', 'A spare part fell below its minimum stock'],
  ]),
  ...crud('Documents', 'document', 'document', [
    ['ocr_completed', 'Text extraction of a document completed'],
    ['ocr_failed', 'Text extraction of a document failed'],
  ]),
  ...crud('Documents', 'drawing', 'drawing'),
  ...only('Communication', [
    ['notification.created', 'A notification was created'],
    ['comment.created', 'A comment was created'],
    ['comment.updated', 'A comment was updated'],
    ['comment.deleted', 'A comment was deleted'],
    ['todo.created', 'A to-do was created'],
    ['todo.updated', 'A to-do was updated'],
    ['todo.completed', 'A to-do was completed'],
  ]),
  ...crud('Outages', 'outage', 'outage', [
    ['approved', 'An outage was approved'],
    ['completed', 'An outage was completed'],
    ['cancelled', 'An outage was cancelled'],
    ['rejected', 'A planned outage was rejected'],
  ]),
  ...crud('Environmental compliance', 'permit', 'permit', [
    ['status_changed', 'The status of a permit changed'],
    ['expiring', 'An active permit is about to expire'],
  ]),
  ...crud('Environmental compliance', 'obligation', 'compliance obligation', [
    ['overdue', 'A compliance obligation is past due'],
    ['due_soon', 'A compliance obligation is due soon'],
    ['completed', 'A compliance obligation was completed'],
  ]),
  ...crud('Environmental compliance', 'submission', 'compliance submission', [
    ['submitted', 'A submission was submitted'],
    ['reviewed', 'A submission was reviewed'],
    ['approved', 'A submission was approved'],
    ['rejected', 'A submission was rejected'],
    ['revision_requested', 'A submission was sent back for revision'],
    ['status_changed', 'The status of a submission changed'],
  ]),
  ...crud('Custom tables', 'content_type', 'custom table definition'),
  ...CMS_ACTIONS.map((action) => ({
    code: `cms.<collection>.${action}`,
    group: 'Custom tables',
    description: `A record of a custom table was ${action}; subscribe with the collection name, e.g. cms.turbines.${action}`,
  })),
];

const KNOWN = new Set(EVENT_TYPES.filter((t) => !t.code.includes('<')).map((t) => t.code));

/** True for a code a webhook may subscribe to (a catalogue code, `*` or a `cms.<collection>.<action>`). */
export function isKnownEvent(code: unknown): boolean {
  return typeof code === 'string' && (KNOWN.has(code) || CMS_EVENT.test(code));
}
