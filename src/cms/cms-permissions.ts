import { Action, can } from '../access/permissions';
import type { Principal } from '../access/principal';
import { AppError } from '../common/errors/app-error';

/**
 * Records of custom tables are granted per type: `cms.<collection>:<action>` for one table, or
 * `cms:<action>` for every table (the wildcard). The records routes check it in the guard
 * (`@PermissionsPerType`); the definitions' list, one definition and its OpenAPI fragment show only
 * the types the caller may read.
 */
export const cmsPermission = (collection: string, action: Action) => `cms.${collection}:${action}`;

export const canCms = (principal: Principal, collection: string, action: Action) =>
  can(principal, cmsPermission(collection, action));

/** 403 unless the caller may do `action` on the records of `collection`. */
export function assertCms(principal: Principal, collection: string, action: Action): void {
  if (!canCms(principal, collection, action)) {
    throw AppError.forbidden(`This needs cms:${action} or ${cmsPermission(collection, action)}`);
  }
}
