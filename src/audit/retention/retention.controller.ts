import { Body, Controller, Param, PipeTransform } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { Route } from '../../access/route.decorator';
import { CurrentPrincipal } from '../../access/access-rules';
import type { Principal } from '../../access/principal';
import { tenantContext } from '../../tenancy/tenant-context';
import { EntityTypeParam } from '../dto/audit-params';
import {
  RetentionPoliciesEnvelopeDto,
  RetentionPolicyEnvelopeDto,
  RetentionRunEnvelopeDto,
  SetRetentionPolicyDto,
} from '../dto/retention.dto';
import { DEFAULT_POLICY_KEY } from '../entities/retention-policy.entity';
import { AuditRetentionService } from './audit-retention.service';
import { RetentionPoliciesService } from './retention-policies.service';

/** An entity type name, or `*` for the tenant default. */
class PolicyKeyParam implements PipeTransform<string, string> {
  transform(value: string): string {
    return value === DEFAULT_POLICY_KEY ? value : new EntityTypeParam().transform(value);
  }
}

const POLICY_PARAM = { name: 'entityType', example: 'Unit', description: '`*` sets the tenant default' };

/** Retention policies per entity type (ADMIN only) and an on-demand retention run. */
@ApiTags('Audit and compliance')
@Controller('compliance/audit')
export class RetentionController {
  constructor(
    private readonly policies: RetentionPoliciesService,
    private readonly retention: AuditRetentionService,
  ) {}

  @Route('GET', 'retention-policies', {
    summary: 'Retention policies and the default (ADMIN)',
    permissions: ['audit_logs:read'],
    minRole: 'ADMIN',
    response: RetentionPoliciesEnvelopeDto,
  })
  list() {
    return this.policies.list();
  }

  @Route('PUT', 'retention-policies/:entityType', {
    summary: 'Set how long entries of an entity type are kept (ADMIN)',
    permissions: ['audit_logs:update'],
    minRole: 'ADMIN',
    response: RetentionPolicyEnvelopeDto,
    badRequest: 'VALIDATION_ERROR',
  })
  @ApiParam(POLICY_PARAM)
  set(
    @CurrentPrincipal() principal: Principal,
    @Param('entityType', new PolicyKeyParam()) entityType: string,
    @Body() dto: SetRetentionPolicyDto,
  ) {
    return this.policies.set(principal, entityType, dto.retentionDays);
  }

  @Route('DELETE', 'retention-policies/:entityType', {
    summary: 'Remove a policy: the default applies again (ADMIN)',
    permissions: ['audit_logs:update'],
    minRole: 'ADMIN',
    notFound: true,
  })
  @ApiParam(POLICY_PARAM)
  async remove(@Param('entityType', new PolicyKeyParam()) entityType: string) {
    await this.policies.remove(entityType);
  }

  @Route('POST', 'retention/run', {
    summary: 'Apply the retention policies to this client now (ADMIN)',
    permissions: ['audit_logs:delete'],
    minRole: 'ADMIN',
    response: RetentionRunEnvelopeDto,
    status: 200,
  })
  async run(@CurrentPrincipal() principal: Principal) {
    const { client } = tenantContext.get();
    const actor = { userId: principal.userId, username: principal.username ?? principal.email };
    return { data: await this.retention.apply(client, actor) };
  }
}
