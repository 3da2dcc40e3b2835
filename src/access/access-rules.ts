import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Permission } from './permissions';
import type { Principal } from './principal';
import type { RoleType } from './roles';

export const AUTH_RULE = 'svc:auth-rule';
export const PER_TYPE_PARAM = 'svc:per-type-param';

export interface AuthRule {
  public?: boolean;
  /** Every listed permission is required (`{resource}:{action}` or `{resource}.{action}`). */
  permissions?: Permission[];
  /** Minimum role in the hierarchy. */
  minRole?: RoleType;
  /** Only on the master database (platform administration). */
  platform?: boolean;
}

/** No credential needed. */
export const Public = () => SetMetadata(AUTH_RULE, { public: true } satisfies AuthRule);

/** A bearer credential (JWT or API token) is needed, plus what the rule lists. */
export const Authenticated = (rule: Omit<AuthRule, 'public'> = {}) =>
  applyDecorators(
    SetMetadata(AUTH_RULE, rule),
    ApiBearerAuth(),
    ApiUnauthorizedResponse({ description: 'Missing, invalid or expired credential' }),
    ApiForbiddenResponse({ description: 'Insufficient permissions' }),
  );

/**
 * On a controller (or route): each permission its rules require may also be held for the one type
 * the path parameter `param` names, e.g. `cms:read` is granted by `cms:read` (every type) or by
 * `cms.<collectionName>:read` (that type alone).
 */
export const PermissionsPerType = (param: string) => SetMetadata(PER_TYPE_PARAM, param);

/** The authenticated caller. */
export const CurrentPrincipal = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Principal => ctx.switchToHttp().getRequest().principal,
);
