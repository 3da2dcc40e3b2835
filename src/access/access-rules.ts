import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Permission } from './permissions';
import type { Principal } from './principal';
import type { RoleType } from './roles';

export const AUTH_RULE = 'svc:auth-rule';

export interface AuthRule {
  public?: boolean;
  /** Every listed permission is required (`{resource}:{action}` or `{resource}.{action}`). */
  permissions?: Permission[];
  /** Minimum role in the hierarchy. */
  minRole?: RoleType;
  /** Only on the master database (platform administration). */
  platform?: boolean;
}

/** Marks a public operation in the OpenAPI document (the document builder turns it into `security: []`). */
export const PUBLIC_OPERATION_EXTENSION = 'x-public';

/** No credential needed. */
export const Public = () =>
  applyDecorators(
    SetMetadata(AUTH_RULE, { public: true } satisfies AuthRule),
    ApiExtension(PUBLIC_OPERATION_EXTENSION, true),
  );

/** A bearer credential (JWT or API token) is needed, plus what the rule lists. */
export const Authenticated = (rule: Omit<AuthRule, 'public'> = {}) =>
  applyDecorators(
    SetMetadata(AUTH_RULE, rule),
    ApiBearerAuth(),
    ApiUnauthorizedResponse({ description: 'Missing, invalid or expired credential' }),
    ApiForbiddenResponse({ description: 'Insufficient permissions' }),
  );

/** The authenticated caller. */
export const CurrentPrincipal = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Principal => ctx.switchToHttp().getRequest().principal,
);
