import { normalizePermission, Permission } from '../../access/permissions';
import type { ResourcePermission } from './entities/api-token.entity';

const FLAGS = [
  ['canCreate', 'create'],
  ['canRead', 'read'],
  ['canUpdate', 'update'],
  ['canDelete', 'delete'],
  ['canPublish', 'publish'],
] as const;

/**
 * resourceName + canCreate/canRead/canUpdate/canDelete/canPublish → `{resource}:{action}`
 * (`cms.<collection>:<action>` for one custom table).
 */
export function toPermissions(list: ResourcePermission[]): Permission[] {
  const result: Permission[] = [];
  for (const entry of list) {
    for (const [flag, action] of FLAGS) {
      if (!entry[flag]) continue;
      const permission = normalizePermission(`${entry.resourceName}:${action}`);
      if (permission) result.push(permission);
    }
  }
  return result;
}
