import { ApiProperty } from '@nestjs/swagger';
import { AUDIT_ACTIONS, AuditAction } from '../../audit-trail/audit-log.entity';

export class AuditEntryDto {
  @ApiProperty({ example: 42 }) id: number;
  @ApiProperty({ enum: AUDIT_ACTIONS }) action: AuditAction;
  @ApiProperty({ nullable: true, type: String, example: 'Unit' }) entityType: string | null;
  @ApiProperty({ nullable: true, type: 'integer', example: 7 }) entityId: number | null;
  @ApiProperty({ nullable: true, type: 'integer', example: 1 }) userId: number | null;
  @ApiProperty({ nullable: true, type: String, example: 'admin@acme.test' }) username: string | null;
  @ApiProperty({ format: 'date-time' }) timestamp: string;
  @ApiProperty({ nullable: true, type: String, example: '10.0.0.7' }) ipAddress: string | null;
  @ApiProperty({ nullable: true, type: String }) userAgent: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'Unit "GT-1" updated' }) message: string | null;
  @ApiProperty({
    nullable: true,
    type: 'object',
    additionalProperties: { type: 'object', properties: { old: {}, new: {} } },
    description: 'field → {old, new}; secrets are never recorded',
    example: { status: { old: 'OPERATIONAL', new: 'MAINTENANCE' } },
  })
  changes: Record<string, { old: unknown; new: unknown }> | null;
  @ApiProperty({
    nullable: true,
    type: 'object',
    additionalProperties: true,
    description: 'Context; recorded errors carry `error: {status, code, message}`',
  })
  metadata: Record<string, unknown> | null;
}

export class AuditPaginationDto {
  @ApiProperty({ description: '0-based page number', example: 0 }) page: number;
  @ApiProperty({ example: 50 }) pageSize: number;
  @ApiProperty({ example: 3 }) pageCount: number;
  @ApiProperty({ example: 120 }) total: number;
}

export class AuditListMetaDto {
  @ApiProperty({ type: AuditPaginationDto }) pagination: AuditPaginationDto;
  @ApiProperty({
    description: 'false when total is PostgreSQL’s estimate (more than AUDIT_EXACT_COUNT_LIMIT matches)',
  })
  totalExact: boolean;
}

/** Paged list, newest first. */
export class AuditPageEnvelopeDto {
  @ApiProperty({ type: [AuditEntryDto] }) data: AuditEntryDto[];
  @ApiProperty({ type: AuditListMetaDto }) meta: AuditListMetaDto;
}

/** The entity trail: `{ data: [...] }`, newest first. */
export class AuditTrailEnvelopeDto {
  @ApiProperty({ type: [AuditEntryDto] }) data: AuditEntryDto[];
}
