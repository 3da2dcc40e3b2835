import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { AppError } from '../common/errors/app-error';
import { assertCompanyAccess, CompanyAudience } from './company-rule';
import type { Principal } from './principal';

const POSITIVE_ID = /^\d{1,15}$/;

function documentCompanyParam(target: object, key: string | symbol | undefined) {
  if (key === undefined) return;
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  if (!descriptor) return;
  ApiParam({
    name: 'companyId',
    type: 'integer',
    description: 'The company (its members, and those who cross companies)',
  })(target, key, descriptor);
}

/**
 * The `companyId` of the path, as a number: 400 VALIDATION_ERROR when it is not a positive integer,
 * 403 when the caller may not reach that company (`assertCompanyAccess`; files audience by default).
 */
export const CompanyParam = createParamDecorator(
  (audience: CompanyAudience | undefined, ctx: ExecutionContext): number => {
    const request = ctx.switchToHttp().getRequest<{ params: Record<string, string>; principal: Principal }>();
    const value = request.params.companyId;
    if (!POSITIVE_ID.test(value ?? '') || Number(value) < 1) {
      throw AppError.validation([{ field: 'companyId', message: 'companyId must be a positive integer' }]);
    }
    const companyId = Number(value);
    assertCompanyAccess(request.principal, companyId, audience ?? 'files');
    return companyId;
  },
  [documentCompanyParam],
);
