import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError } from '../../common/errors/app-error';
import { PRODUCTION_SCHEMA, tenantContext } from '../../tenancy/tenant-context';
import { AUTH_RULE, AuthRule, PER_TYPE_PARAM } from '../../access/access-rules';
import { Authenticator } from './authenticator.service';
import { can, perTypePermission } from '../../access/permissions';
import { hasRank } from '../../access/roles';
import { SandboxAccess } from './sandbox-access.service';

/**
 * The one global guard: every route is authenticated unless marked @Public(); @Authenticated()
 * adds permission, role and platform rules. Unannotated routes need a valid credential.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
    private readonly sandboxAccess: SandboxAccess,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.getAllAndOverride<AuthRule | undefined>(AUTH_RULE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (rule?.public) return true;
    const request = context.switchToHttp().getRequest();
    const principal = await this.authenticator.authenticate(request.headers.authorization);
    const store = tenantContext.get();
    store.principal = principal;
    request.principal = principal;

    if (rule?.platform && !store.client.isMaster)
      throw AppError.forbidden('Platform administration is only on the master database');
    if (rule?.minRole && !hasRank(principal.role, rule.minRole)) throw AppError.forbidden();
    // A role-only rule (platform administration) grants by role, which a restricted token does not carry.
    if (rule?.minRole && principal.restricted && !rule.permissions?.length) {
      throw AppError.forbidden('This API token is limited to its listed permissions');
    }
    const typeParam = this.reflector.getAllAndOverride<string | undefined>(PER_TYPE_PARAM, [
      context.getHandler(),
      context.getClass(),
    ]);
    const type: string | undefined = typeParam ? request.params?.[typeParam] : undefined;
    for (const required of rule?.permissions ?? []) {
      if (!can(principal, perTypePermission(required, type))) throw AppError.forbidden();
    }
    if (store.schema !== PRODUCTION_SCHEMA && !(await this.sandboxAccess.allowed(principal, store.schema))) {
      throw AppError.forbidden('No access to this sandbox');
    }
    return true;
  }
}
