/**
 * The tag list at the root of the document, in display order. Every tag an operation uses must be
 * here (the document builder refuses an undescribed tag).
 */
export const TAGS: { name: string; description: string }[] = [
  { name: 'Authentication', description: 'Local login, registration, tokens, logout and passwords' },
  {
    name: 'Authentication: two-factor',
    description: 'TOTP two-factor: enable, verify, disable and the login step',
  },
  {
    name: 'Single sign-on',
    description: 'OIDC and SAML login, account linking and service-provider metadata',
  },
  { name: 'Single sign-on (older paths)', description: 'Earlier SSO paths kept for existing integrations' },
  { name: 'Sandboxes', description: "The caller's sandboxes (copies of the production schema)" },
  {
    name: 'Administration: users',
    description: 'Users of the client: create, edit, block, roles and sandbox grants',
  },
  { name: 'Administration: companies', description: 'Companies of the client' },
  { name: 'Administration: roles', description: 'The five roles and their permissions' },
  { name: 'Administration: API tokens', description: 'Long-lived API tokens (`svc_...`)' },
  { name: 'Identity providers (admin)', description: 'OIDC and SAML identity providers of the client' },
  { name: 'Admin: webhooks', description: 'Webhook subscriptions, deliveries and the event catalogue' },
  {
    name: 'Platform administration',
    description: 'Clients, their databases and migrations (SUPER_ADMIN, master database)',
  },
  { name: 'Assets: units', description: 'Generating units' },
  { name: 'Assets: work orders', description: 'Maintenance work orders' },
  { name: 'Assets: failures', description: 'Failures of units' },
  { name: 'Outages', description: 'Planned and forced outages of units and their approval' },
  { name: 'Environmental compliance: permits', description: 'Environmental permits and their expiry' },
  {
    name: 'Environmental compliance: obligations',
    description: 'Obligations of permits and their due dates',
  },
  {
    name: 'Environmental compliance: submissions',
    description: 'Reports submitted for obligations and their review',
  },
  { name: 'Custom tables', description: 'Content types (custom tables) and their records' },
  { name: 'Files', description: 'Uploads and stored files' },
  { name: 'OCR', description: 'OCR settings per company' },
  { name: 'Document analysis', description: 'Text extraction of uploaded documents, per company' },
  { name: 'Document search', description: 'Full-text search over extracted document text' },
  { name: 'Document administration', description: 'Document processing across companies (administrators)' },
  { name: 'AI', description: 'AI chat, providers and usage statistics' },
  { name: 'Audit and compliance', description: 'The audit trail, reports, exports and retention' },
  {
    name: 'Health',
    description: 'Liveness, readiness, component health, and the release with its migrations',
  },
  { name: 'Metrics', description: 'Prometheus metrics' },
];
