export const ROLE_TYPES = ['SUPER_ADMIN', 'ADMIN', 'MANAGER', 'OPERATOR', 'VIEWER'] as const;
export type RoleType = (typeof ROLE_TYPES)[number];

/** Hierarchy, highest first: a higher rank includes what a lower one may do. */
export const ROLE_RANK: Record<RoleType, number> = {
  SUPER_ADMIN: 5,
  ADMIN: 4,
  MANAGER: 3,
  OPERATOR: 2,
  VIEWER: 1,
};

export const ROLE_NAMES: Record<RoleType, string> = {
  SUPER_ADMIN: 'Super Admin',
  ADMIN: 'Admin',
  MANAGER: 'Manager',
  OPERATOR: 'Operator',
  VIEWER: 'Viewer',
};

export function hasRank(role: RoleType, minimum: RoleType): boolean {
  return ROLE_RANK[role] >= ROLE_RANK[minimum];
}
