import { PipeTransform } from '@nestjs/common';
import { isIP } from 'node:net';
import { AppError } from '../../common/errors/app-error';
import { AUDIT_ACTIONS, AuditAction } from '../../audit-trail/audit-log.entity';

const invalid = (field: string, message: string) => AppError.validation([{ field, message }]);

export const ENTITY_TYPE = /^[A-Za-z][A-Za-z0-9_.:-]{0,99}$/;

export class EntityTypeParam implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!ENTITY_TYPE.test(value))
      throw invalid('entityType', 'entityType must be a type name (letters, digits, _.:-)');
    return value;
  }
}

/** One of the action enum, case-insensitive. */
export class ActionParam implements PipeTransform<string, AuditAction> {
  transform(value: string): AuditAction {
    const action = value.toUpperCase() as AuditAction;
    if (!AUDIT_ACTIONS.includes(action))
      throw invalid('action', `action must be one of ${AUDIT_ACTIONS.join(', ')}`);
    return action;
  }
}

export function checkIp(value: string, field = 'ipAddress'): string {
  if (!isIP(value)) throw invalid(field, `${field} must be an IPv4 or IPv6 address`);
  return value;
}

export class IpParam implements PipeTransform<string, string> {
  transform(value: string): string {
    return checkIp(value);
  }
}
