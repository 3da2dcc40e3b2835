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

/** Resources whose permissions may also be held for one type: `cms.<collection>:<action>` beside `cms:<action>`. */
export const PER_TYPE_RESOURCES = ['cms'] as const;
export type PerTypeResource = (typeof PER_TYPE_RESOURCES)[number];
/** The name of one type of a per-type resource (a custom table's collection name). */
export const TYPE_NAME = /^[a-z][a-z0-9_]{0,39}$/;

/** `{resource}:{action}`, or `{resource}.{type}:{action}` for one type of a per-type resource. */
export type Permission = `${Resource}:${Action}` | `${PerTypeResource}.${string}:${Action}`;

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

/**
 * Accepts `{resource}:{action}` and `{resource}.{action}`, and for a per-type resource
 * `{resource}.{type}:{action}` and `{resource}.{type}.{action}`; returns the canonical colon form or null.
 */
export function normalizePermission(value: string): Permission | null {
  const match = /^([a-z_]+)(?:\.([a-z][a-z0-9_]{0,39}))?[:.]([a-z]+)$/.exec(value.trim());
  if (!match) return null;
  const [, resource, type, action] = match;
  if (!isPermissionResource(type === undefined ? resource : `${resource}.${type}`)) return null;
  if (!(ACTIONS as readonly string[]).includes(action)) return null;
  return `${type === undefined ? resource : `${resource}.${type}`}:${action}` as Permission;
}

/** A resource a permission may name: one of RESOURCES, or `{resource}.{type}` of a per-type resource. */
export function isPermissionResource(name: string): boolean {
  const dot = name.indexOf('.');
  if (dot < 0) return (RESOURCES as readonly string[]).includes(name);
  return (
    (PER_TYPE_RESOURCES as readonly string[]).includes(name.slice(0, dot)) &&
    TYPE_NAME.test(name.slice(dot + 1))
  );
}

/**
 * The permission `{resource}:{action}` narrowed to one type (`{resource}.{type}:{action}`), for a
 * per-type resource and a valid type name; otherwise the permission as given.
 */
export function perTypePermission(permission: string, type: string | undefined): string {
  const match = /^([a-z_]+):([a-z]+)$/.exec(permission);
  if (!match || type === undefined || !TYPE_NAME.test(type)) return permission;
  if (!(PER_TYPE_RESOURCES as readonly string[]).includes(match[1])) return permission;
  return `${match[1]}.${type}:${match[2]}`;
}

/**
 * Whether a set of canonical permissions grants `permission` (canonical): held as such, or, for one
 * type of a per-type resource, through the resource's wildcard (`cms:read` grants `cms.sites:read`).
 */
export function holds(held: ReadonlySet<string>, permission: string): boolean {
  if (held.has(permission)) return true;
  const perType = /^([a-z_]+)\.[a-z][a-z0-9_]*:([a-z]+)$/.exec(permission);
  return perType !== null && held.has(`${perType[1]}:${perType[2]}`);
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

/**
 * Whether the caller holds a permission (SUPER_ADMIN signed in with a JWT holds them all); one
 * type's permission is held through the resource's wildcard too (`cms:read` for `cms.sites:read`).
 */
export function can(principal: Principal, permission: string): boolean {
  if (principal.role === 'SUPER_ADMIN' && principal.via === 'jwt') return true;
  const canonical = normalizePermission(permission);
  return canonical !== null && holds(principal.permissions, canonical);
}
