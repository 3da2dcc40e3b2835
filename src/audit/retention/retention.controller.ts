import { Body, Controller, Delete, Get, HttpCode, Param, PipeTransform, Post, Put } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from '../../access/access-rules';
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

  @Get('retention-policies')
  @Authenticated({ permissions: ['audit_logs:read'], minRole: 'ADMIN' })
  @ApiOperation({ summary: 'Retention policies and the default (ADMIN)' })
  @ApiOkResponse({ type: RetentionPoliciesEnvelopeDto })
  list() {
    return this.policies.list();
  }

  @Put('retention-policies/:entityType')
  @Authenticated({ permissions: ['audit_logs:update'], minRole: 'ADMIN' })
  @ApiOperation({ summary: 'Set how long entries of an entity type are kept (ADMIN)' })
  @ApiParam(POLICY_PARAM)
  @ApiOkResponse({ type: RetentionPolicyEnvelopeDto })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR' })
  set(
    @CurrentPrincipal() principal: Principal,
    @Param('entityType', new PolicyKeyParam()) entityType: string,
    @Body() dto: SetRetentionPolicyDto,
  ) {
    return this.policies.set(principal, entityType, dto.retentionDays);
  }

  @Delete('retention-policies/:entityType')
  @HttpCode(204)
  @Authenticated({ permissions: ['audit_logs:update'], minRole: 'ADMIN' })
  @ApiOperation({ summary: 'Remove a policy: the default applies again (ADMIN)' })
  @ApiParam(POLICY_PARAM)
  @ApiNoContentResponse()
  @ApiNotFoundResponse()
  async remove(@Param('entityType', new PolicyKeyParam()) entityType: string) {
    await this.policies.remove(entityType);
  }

  @Post('retention/run')
  @HttpCode(200)
  @Authenticated({ permissions: ['audit_logs:delete'], minRole: 'ADMIN' })
  @ApiOperation({ summary: 'Apply the retention policies to this client now (ADMIN)' })
  @ApiOkResponse({ type: RetentionRunEnvelopeDto })
  async run(@CurrentPrincipal() principal: Principal) {
    const { client } = tenantContext.get();
    const actor = { userId: principal.userId, username: principal.username ?? principal.email };
    return { data: await this.retention.apply(client, actor) };
  }
}
