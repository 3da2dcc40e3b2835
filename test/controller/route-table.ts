import type { Permission, Resource } from '../../src/access/permissions';
import type { RoleType } from '../../src/access/roles';

/**
 * Who may call what: every route the application registers, with the rule it is documented to
 * follow. The role-matrix test compares this table with the routes the app really registers (a
 * route missing here fails) and with what the guard really answers for every role. It is written
 * by hand on purpose: changing a route's decorator without changing its row here fails the test.
 */
export type RouteRule =
  /** No credential needed. */
  | { public: true }
  /** A valid credential, nothing more (every role, every API token). */
  | { signedIn: true }
  /** Every listed permission; optionally a minimum role; optionally only on the master database. */
  | { permissions?: Permission[]; minRole?: RoleType; platform?: true };

const PUBLIC: RouteRule = { public: true };
const SIGNED_IN: RouteRule = { signedIn: true };
const need = (...permissions: Permission[]): RouteRule => ({ permissions });
/** Admin-only resources: the permission and the ADMIN rank. */
const admin = (permission: Permission): RouteRule => ({ permissions: [permission], minRole: 'ADMIN' });
const manager = (permission: Permission): RouteRule => ({ permissions: [permission], minRole: 'MANAGER' });
/** Platform administration: SUPER_ADMIN on the master database, by role alone. */
const PLATFORM: RouteRule = { minRole: 'SUPER_ADMIN', platform: true };

/** The client registry answers under two prefixes (the second is the historical one). */
const platformRoutes = (prefix: string): Record<string, RouteRule> => ({
  [`POST ${prefix}`]: PLATFORM,
  [`GET ${prefix}`]: PLATFORM,
  [`GET ${prefix}/active`]: PLATFORM,
  [`GET ${prefix}/migration-status`]: PLATFORM,
  [`POST ${prefix}/migrate`]: PLATFORM,
  [`GET ${prefix}/:id`]: PLATFORM,
  [`PUT ${prefix}/:id`]: PLATFORM,
  [`DELETE ${prefix}/:id`]: PLATFORM,
  [`POST ${prefix}/:id/provision`]: PLATFORM,
  [`POST ${prefix}/:id/suspend`]: PLATFORM,
  [`POST ${prefix}/:id/activate`]: PLATFORM,
  [`POST ${prefix}/:id/migrate`]: PLATFORM,
});

/** CRUD of an operational resource guarded by one resource's permissions. */
const crud = (path: string, resource: Resource): Record<string, RouteRule> => ({
  [`GET ${path}`]: need(`${resource}:read`),
  [`GET ${path}/:id`]: need(`${resource}:read`),
  [`POST ${path}/aggregate`]: need(`${resource}:read`),
  [`POST ${path}`]: need(`${resource}:create`),
  [`PUT ${path}/:id`]: need(`${resource}:update`),
  [`DELETE ${path}/:id`]: need(`${resource}:delete`),
});

export const ROUTE_TABLE: Record<string, RouteRule> = {
  // Operations (work orders and failures are guarded by the units permissions)
  ...crud('/api/units', 'units'),
  ...crud('/api/work-orders', 'units'),
  ...crud('/api/failures', 'units'),

  // Outages and environmental compliance (approvals and reviews need MANAGER besides the permission)
  ...crud('/api/outages', 'outage_events'),
  'GET /api/outages/count': need('outage_events:read'),
  'GET /api/outages/active': need('outage_events:read'),
  'GET /api/outages/unit/:unitId': need('outage_events:read'),
  'POST /api/outages/:id/complete': need('outage_events:update'),
  'POST /api/outages/:id/cancel': need('outage_events:update'),
  'POST /api/outages/:id/approve': manager('outage_events:update'),
  'POST /api/outages/:id/reject': manager('outage_events:update'),
  ...crud('/api/permits', 'environmental_permits'),
  'GET /api/permits/count': need('environmental_permits:read'),
  'GET /api/permits/expiring': need('environmental_permits:read'),
  'GET /api/permits/by-status': need('environmental_permits:read'),
  ...crud('/api/compliance-obligations', 'compliance_obligations'),
  'GET /api/compliance-obligations/count': need('compliance_obligations:read'),
  'GET /api/compliance-obligations/overdue': need('compliance_obligations:read'),
  'GET /api/compliance-obligations/upcoming': need('compliance_obligations:read'),
  'GET /api/compliance-obligations/permit/:permitId': need('compliance_obligations:read'),
  'POST /api/compliance-obligations/:id/complete': need('compliance_obligations:update'),
  ...crud('/api/compliance-submissions', 'compliance_submissions'),
  'GET /api/compliance-submissions/count': need('compliance_submissions:read'),
  'POST /api/compliance-submissions/:id/submit': need('compliance_submissions:update'),
  'POST /api/compliance-submissions/:id/review': manager('compliance_submissions:update'),
  'POST /api/compliance-submissions/:id/approve': manager('compliance_submissions:update'),
  'POST /api/compliance-submissions/:id/reject': manager('compliance_submissions:update'),
  'POST /api/compliance-submissions/:id/request-revision': manager('compliance_submissions:update'),
  // Custom tables: definitions (content_types) and records (cms)
  'GET /api/cms/content-types': need('content_types:read'),
  'GET /api/cms/content-types/count': need('content_types:read'),
  'GET /api/cms/content-types/:collectionName': need('content_types:read'),
  'GET /api/cms/content-types/:collectionName/openapi': need('content_types:read'),
  'POST /api/cms/content-types': need('content_types:create'),
  'PUT /api/cms/content-types/:collectionName': need('content_types:update'),
  'DELETE /api/cms/content-types/:collectionName': need('content_types:delete'),
  'POST /api/cms/migrations/sync': need('content_types:update'),
  'GET /api/cms/:collectionName/count': need('cms:read'),
  'POST /api/cms/:collectionName/search': need('cms:read'),
  'POST /api/cms/:collectionName/aggregate': need('cms:read'),
  'POST /api/cms/:collectionName/bulk-delete': need('cms:delete'),
  'GET /api/cms/:collectionName': need('cms:read'),
  'GET /api/cms/:collectionName/:id': need('cms:read'),
  'POST /api/cms/:collectionName': need('cms:create'),
  'PUT /api/cms/:collectionName/:id': need('cms:update'),
  'DELETE /api/cms/:collectionName/:id': need('cms:delete'),
  'POST /api/cms/:collectionName/:id/publish': need('cms:publish'),
  'POST /api/cms/:collectionName/:id/unpublish': need('cms:publish'),

  // Audit and compliance
  'GET /compliance/audit/report/compliance-summary': admin('audit_logs:read'),
  'GET /compliance/audit/report/user-activity/:userId': admin('audit_logs:read'),
  'GET /compliance/audit/report/entity-access/:entityType/:entityId': manager('audit_logs:read'),
  'GET /compliance/audit/report/retention': admin('audit_logs:read'),
  'GET /compliance/audit/export': admin('audit_logs:read'),
  'GET /compliance/audit/retention-policies': admin('audit_logs:read'),
  'PUT /compliance/audit/retention-policies/:entityType': admin('audit_logs:update'),
  'DELETE /compliance/audit/retention-policies/:entityType': admin('audit_logs:update'),
  'POST /compliance/audit/retention/run': admin('audit_logs:delete'),
  'GET /compliance/audit/entity/:entityType/:entityId': manager('audit_logs:read'),
  'GET /compliance/audit/user/:userId': manager('audit_logs:read'),
  'GET /compliance/audit/entity-type/:entityType': manager('audit_logs:read'),
  'GET /compliance/audit/action/:action': manager('audit_logs:read'),
  'GET /compliance/audit/time-range': manager('audit_logs:read'),
  'GET /compliance/audit/security': admin('audit_logs:read'),
  'GET /compliance/audit/errors': manager('audit_logs:read'),
  'GET /compliance/audit/search': manager('audit_logs:read'),
  'GET /compliance/audit/ip/:ipAddress': admin('audit_logs:read'),

  // Authentication
  'POST /auth/local': PUBLIC,
  'POST /auth/local/register': PUBLIC,
  'GET /auth/email-confirmation': PUBLIC,
  'POST /auth/refresh-token': PUBLIC,
  'POST /auth/logout': PUBLIC,
  'POST /auth/forgot-password': PUBLIC,
  'POST /auth/reset-password': PUBLIC,
  'POST /api/custom/change-password': SIGNED_IN,
  'POST /auth/2fa/enable': SIGNED_IN,
  'POST /auth/2fa/verify': SIGNED_IN,
  'POST /auth/2fa/disable': SIGNED_IN,
  'POST /auth/2fa/authenticate': PUBLIC,
  'POST /auth/2fa/recover': PUBLIC,

  // API tokens
  'POST /api/admin/tokens': admin('api_tokens:create'),
  'GET /api/admin/tokens': admin('api_tokens:read'),
  'DELETE /api/admin/tokens/:id': admin('api_tokens:delete'),

  // User administration
  'GET /api/admin/users': need('users:read'),
  'GET /api/admin/users/:id': need('users:read'),
  'POST /api/admin/users': need('users:create'),
  'PUT /api/admin/users/:id': need('users:update'),
  'DELETE /api/admin/users/:id': need('users:delete'),
  'POST /api/admin/users/:id/block': need('users:update'),
  'POST /api/admin/users/:id/unblock': need('users:update'),
  'POST /api/admin/users/:id/unlock': need('users:update'),
  'PUT /api/admin/users/:id/role': need('users:update'),
  'PUT /api/admin/users/:id/sandboxes': need('users:update'),
  'GET /api/admin/companies': need('companies:read'),
  'GET /api/admin/companies/:id': need('companies:read'),
  'POST /api/admin/companies': need('companies:create'),
  'PUT /api/admin/companies/:id': need('companies:update'),
  'DELETE /api/admin/companies/:id': need('companies:delete'),
  'GET /api/admin/roles': need('roles:read'),
  'GET /api/admin/roles/:id': need('roles:read'),
  'PUT /api/admin/roles/:id': need('roles:update'),

  // Platform administration
  ...platformRoutes('/api/platform/clients'),
  ...platformRoutes('/admin/clients'),
  'GET /api/platform/migrations/:jobId': PLATFORM,
  'GET /api/platform/database-servers': PLATFORM,
  'POST /api/platform/database-servers': PLATFORM,
  'GET /api/platform/database-servers/:id': PLATFORM,
  'PUT /api/platform/database-servers/:id': PLATFORM,
  'POST /api/platform/database-servers/:id/drain': PLATFORM,
  'GET /api/platform/database-servers/:id/drain': PLATFORM,
  'POST /api/platform/clients/:id/move': PLATFORM,
  'GET /api/platform/moves/:jobId': PLATFORM,
  'POST /api/platform/clients/:id/backups': PLATFORM,
  'GET /api/platform/clients/:id/backups': PLATFORM,
  'GET /api/platform/backups/:id': PLATFORM,
  'DELETE /api/platform/backups/:id': PLATFORM,
  'GET /api/platform/backups/:id/download': PLATFORM,
  'POST /api/platform/backups/:id/restore': PLATFORM,
  'GET /api/platform/restores/:jobId': PLATFORM,

  // Sandboxes
  'GET /sandboxes': need('sandboxes:read'),
  'POST /sandboxes': need('sandboxes:create'),

  // Webhooks
  'GET /api/admin/webhooks/event-types': admin('webhooks:read'),
  'GET /api/admin/webhooks/company/:id': admin('webhooks:read'),
  'GET /api/admin/webhooks/deliveries/:id': admin('webhooks:read'),
  'POST /api/admin/webhooks/deliveries/:id/retry': admin('webhooks:update'),
  'POST /api/admin/webhooks': admin('webhooks:create'),
  'GET /api/admin/webhooks/:id': admin('webhooks:read'),
  'PUT /api/admin/webhooks/:id': admin('webhooks:update'),
  'DELETE /api/admin/webhooks/:id': admin('webhooks:delete'),
  'POST /api/admin/webhooks/:id/enable': admin('webhooks:update'),
  'POST /api/admin/webhooks/:id/disable': admin('webhooks:update'),
  'POST /api/admin/webhooks/:id/regenerate-secret': admin('webhooks:update'),
  'POST /api/admin/webhooks/:id/test': admin('webhooks:update'),
  'GET /api/admin/webhooks/:id/deliveries': admin('webhooks:read'),

  // Identity providers and single sign-on
  'GET /api/admin/identity-providers': admin('identity_providers:read'),
  'GET /api/admin/identity-providers/presets': admin('identity_providers:read'),
  'POST /api/admin/identity-providers/discover': admin('identity_providers:create'),
  'GET /api/admin/identity-providers/:id': admin('identity_providers:read'),
  'POST /api/admin/identity-providers': admin('identity_providers:create'),
  'PUT /api/admin/identity-providers/:id': admin('identity_providers:update'),
  'DELETE /api/admin/identity-providers/:id': admin('identity_providers:delete'),
  'POST /api/admin/identity-providers/:id/test': admin('identity_providers:update'),
  'GET /auth/sso/providers': PUBLIC,
  'POST /auth/sso/authorize': PUBLIC,
  'GET /auth/sso/callback/:providerId': PUBLIC,
  'POST /auth/sso/exchange': PUBLIC,
  'POST /auth/sso/saml/acs': PUBLIC,
  'POST /auth/sso/saml/acs/:client': PUBLIC,
  'GET /auth/sso/saml/slo': PUBLIC,
  'GET /auth/sso/saml/metadata': PUBLIC,
  'GET /auth/sso/saml/metadata/:client': PUBLIC,
  'GET /auth/sso/linked-accounts': SIGNED_IN,
  'POST /auth/sso/link': SIGNED_IN,
  'DELETE /auth/sso/link/:providerId': SIGNED_IN,
  'POST /auth/sso/saml/logout': SIGNED_IN,
  'GET /sso/providers': PUBLIC,
  'GET /sso/login/:provider': PUBLIC,
  'POST /sso/callback/saml': PUBLIC,
  'GET /sso/callback/oidc': PUBLIC,

  // AI chat
  'POST /api/ai/chat': need('ai:create'),
  'GET /api/ai/providers': need('ai:read'),
  'GET /api/ai/providers/:providerCode': need('ai:read'),
  'GET /api/ai/health': need('ai:read'),
  'GET /api/ai/stats': manager('ai:read'),
  'GET /api/ai/stats/costs': manager('ai:read'),
  'GET /api/ai/stats/conversations': manager('ai:read'),
  'GET /api/ai/stats/user/:username': need('ai:read'),
  // Company file upload, OCR, document analysis and search
  'POST /api/upload/company/:companyId': need('documents:create'),
  'POST /api/upload/company/:companyId/multiple': need('documents:create'),
  'POST /api/upload/company/:companyId/link': need('documents:create'),
  'GET /api/files/:id': need('documents:read'),
  'GET /api/files/:id/content': need('documents:read'),
  'GET /api/companies/ocr-status': need('documents:read'),
  'GET /api/companies/:companyId/ocr-config': need('documents:read'),
  'PUT /api/companies/:companyId/ocr-config': admin('documents:update'),
  'POST /api/companies/:companyId/ocr-config/enable': admin('documents:update'),
  'POST /api/companies/:companyId/ocr-config/disable': admin('documents:update'),
  'GET /api/companies/:companyId/document-analysis/summary': need('documents:read'),
  'GET /api/companies/:companyId/document-analysis/queue-status': manager('documents:update'),
  'POST /api/companies/:companyId/document-analysis/retry-all-failed': manager('documents:update'),
  'POST /api/companies/:companyId/document-analysis/analyze/:fileId': manager('documents:update'),
  'GET /api/companies/:companyId/document-analysis': need('documents:read'),
  'GET /api/companies/:companyId/document-analysis/:analysisId': need('documents:read'),
  'POST /api/companies/:companyId/document-analysis/:analysisId/retry': manager('documents:update'),
  'GET /search/documents': need('documents:read'),
  'GET /search/documents/:fileId': need('documents:read'),
  'GET /api/admin/documents/ocr-status': admin('documents:read'),
  'GET /api/admin/documents/stats': admin('documents:read'),
  'GET /api/admin/documents': admin('documents:read'),
  'POST /api/admin/documents/reprocess-failed': admin('documents:update'),
  'GET /api/admin/documents/:fileId': admin('documents:read'),
  'POST /api/admin/documents/:fileId/process': admin('documents:update'),
  'POST /api/admin/documents/:fileId/reprocess': admin('documents:update'),
  'DELETE /api/admin/documents/:fileId': admin('documents:delete'),

  // Operations of the service itself (/metrics checks METRICS_TOKEN itself when it is set)
  'GET /metrics': PUBLIC,
  'GET /management/health': PUBLIC,
  'GET /management/health/liveness': PUBLIC,
  'GET /management/health/readiness': PUBLIC,
  'GET /management/info': PUBLIC,
};
