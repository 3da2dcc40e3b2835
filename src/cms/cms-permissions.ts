import { Action, can } from '../access/permissions';
import type { Principal } from '../access/principal';
import { AppError } from '../common/errors/app-error';
import type { CompiledType } from './content-type.types';

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

/**
 * 403 unless the caller may read the records of `target`, reached through the relation at `path`
 * of another type's query: the check of a direct read of `target`. The message names the path, not
 * the type, so it tells nothing of a type the caller cannot see.
 */
export function assertRelatedRead(principal: Principal, target: CompiledType, path: string): void {
  if (!canCms(principal, target.collectionName, 'read')) {
    throw AppError.forbidden(`${path} reaches a related type whose records you may not read`);
  }
}
