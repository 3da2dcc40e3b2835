import type { Principal } from './principal';
import { RoleType } from './roles';

export const RESOURCES = [
  'users',
  'roles',
  'companies',
  'sandboxes',
  'api_tokens',
  'identity_providers',
  'webhooks',
  'audit_logs',
  'units',
  'outage_events',
  'environmental_permits',
  'compliance_obligations',
  'compliance_submissions',
  'content_types',
  'cms',
  'ai',
  'documents',
  'system_configuration',
] as const;
export type Resource = (typeof RESOURCES)[number];

export const ACTIONS = ['create', 'read', 'update', 'delete', 'publish'] as const;
export type Action = (typeof ACTIONS)[number];

export type Permission = `${Resource}:${Action}`;

const OPERATIONAL: Resource[] = [
  'units',
  'outage_events',
  'environmental_permits',
  'compliance_obligations',
  'compliance_submissions',
  'cms',
  'ai',
  'documents',
];
const USER_MANAGEMENT: Resource[] = ['users', 'roles', 'companies'];
const ADMIN_ONLY: Resource[] = ['api_tokens', 'identity_providers', 'webhooks', 'system_configuration'];

const all = (resources: readonly Resource[], actions: readonly Action[] = ACTIONS): Permission[] =>
  resources.flatMap((r) => actions.map((a): Permission => `${r}:${a}`));

/** Accepts `{resource}:{action}` and `{resource}.{action}`; returns the canonical colon form or null. */
export function normalizePermission(value: string): Permission | null {
  const match = /^([a-z_]+)[:.]([a-z]+)$/.exec(value.trim());
  if (!match) return null;
  const [, resource, action] = match;
  if (
    !(RESOURCES as readonly string[]).includes(resource) ||
    !(ACTIONS as readonly string[]).includes(action)
  ) {
    return null;
  }
  return `${resource}:${action}` as Permission;
}

/** Default permission sets of the five roles; api tokens, identity providers, webhooks and system configuration are ADMIN-only. */
export const DEFAULT_PERMISSIONS: Record<RoleType, Permission[]> = {
  SUPER_ADMIN: all(RESOURCES),
  ADMIN: all(RESOURCES.filter((r) => r !== 'system_configuration')),
  MANAGER: [
    ...all(OPERATIONAL),
    ...all(['content_types', 'sandboxes']),
    ...all(USER_MANAGEMENT, ['read']),
    'audit_logs:read',
  ],
  OPERATOR: [
    ...all(OPERATIONAL, ['create', 'read', 'update']),
    ...all([...USER_MANAGEMENT, 'content_types', 'sandboxes'], ['read']),
  ],
  VIEWER: all(
    RESOURCES.filter((r) => !ADMIN_ONLY.includes(r) && r !== 'audit_logs'),
    ['read'],
  ),
};

/** Whether the caller holds a permission (SUPER_ADMIN signed in with a JWT holds them all). */
export function can(principal: Principal, permission: string): boolean {
  if (principal.role === 'SUPER_ADMIN' && principal.via === 'jwt') return true;
  const canonical = normalizePermission(permission);
  return canonical !== null && principal.permissions.has(canonical);
}
