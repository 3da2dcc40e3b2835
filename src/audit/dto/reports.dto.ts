import { ApiProperty } from '@nestjs/swagger';
import { ANY_JSON_VALUE } from '../../common/openapi/schemas';

class PeriodDto {
  @ApiProperty({ example: '2026-01-01' }) startDate: string;
  @ApiProperty({ example: '2026-01-31' }) endDate: string;
}

class SecurityEventsDto {
  @ApiProperty() failedLogins: number;
  @ApiProperty() passwordChanges: number;
  @ApiProperty() roleChanges: number;
}

class DataChangesDto {
  @ApiProperty() created: number;
  @ApiProperty() modified: number;
  @ApiProperty() deleted: number;
}

export class ComplianceSummaryDto {
  @ApiProperty({ type: PeriodDto }) period: PeriodDto;
  @ApiProperty() totalEvents: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { CREATE: 10, UPDATE: 4 },
  })
  eventsByAction: Record<string, number>;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' }, example: { Unit: 14 } })
  eventsByEntityType: Record<string, number>;
  @ApiProperty() uniqueUsers: number;
  @ApiProperty() uniqueIpAddresses: number;
  @ApiProperty({ type: SecurityEventsDto }) securityEvents: SecurityEventsDto;
  @ApiProperty({ type: DataChangesDto }) dataChanges: DataChangesDto;
}

export class ComplianceSummaryEnvelopeDto {
  @ApiProperty({ type: ComplianceSummaryDto }) data: ComplianceSummaryDto;
}

export class UserActivityDto {
  @ApiProperty() userId: number;
  @ApiProperty({ nullable: true, type: String }) username: string | null;
  @ApiProperty({ type: PeriodDto }) period: PeriodDto;
  @ApiProperty() totalActions: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { LOGIN: 3, UPDATE: 2 },
  })
  actionsByType: Record<string, number>;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { Unit: 2 },
    description: 'Entries per entity type',
  })
  entitiesAccessed: Record<string, number>;
  @ApiProperty({ description: 'Successful logins in the period' }) loginSessions: number;
  @ApiProperty({ description: 'Mean of the sessions closed by a LOGOUT' }) avgSessionDurationMinutes: number;
  @ApiProperty({ type: [String] }) ipAddresses: string[];
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) lastActivity: string | null;
}

export class UserActivityEnvelopeDto {
  @ApiProperty({ type: UserActivityDto }) data: UserActivityDto;
}

class AccessByUserDto {
  @ApiProperty() username: string;
  @ApiProperty() accessCount: number;
  @ApiProperty({ format: 'date-time' }) lastAccess: string;
}

class ChangeHistoryDto {
  @ApiProperty({ format: 'date-time' }) timestamp: string;
  @ApiProperty({ nullable: true, type: String }) user: string | null;
  @ApiProperty({ example: 'UPDATE' }) action: string;
  @ApiProperty({ nullable: true, type: String, example: 'status' }) field: string | null;
  @ApiProperty({ ...ANY_JSON_VALUE, description: 'The value before the change' }) oldValue: unknown;
  @ApiProperty({ ...ANY_JSON_VALUE, description: 'The value after the change' }) newValue: unknown;
}

export class EntityAccessDto {
  @ApiProperty() entityType: string;
  @ApiProperty() entityId: number;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) createdAt: string | null;
  @ApiProperty({ nullable: true, type: String }) createdBy: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) lastModified: string | null;
  @ApiProperty({ nullable: true, type: String }) lastModifiedBy: string | null;
  @ApiProperty({ description: 'Every audit entry about the entity' }) totalAccessCount: number;
  @ApiProperty() uniqueUsersAccessed: number;
  @ApiProperty({ type: [AccessByUserDto] }) accessByUser: AccessByUserDto[];
  @ApiProperty({ type: [ChangeHistoryDto] }) changeHistory: ChangeHistoryDto[];
}

export class EntityAccessEnvelopeDto {
  @ApiProperty({ type: EntityAccessDto }) data: EntityAccessDto;
}

class RetentionEntryDto {
  @ApiProperty({ example: 'Unit', description: '`(none)` for entries without an entity type' })
  entityType: string;
  @ApiProperty() retentionDays: number;
  @ApiProperty({ nullable: true, type: String, format: 'date' }) oldestRecord: string | null;
  @ApiProperty() totalRecords: number;
  @ApiProperty() recordsEligibleForDeletion: number;
}

class StorageUsageDto {
  @ApiProperty({ example: '512 MB' }) auditLogs: string;
  @ApiProperty({ example: '12 MB', description: 'Part of auditLogs taken by LOGIN/LOGOUT entries' })
  loginHistory: string;
  @ApiProperty({ example: '513 MB' }) total: string;
}

export class RetentionReportDto {
  @ApiProperty({ format: 'date-time' }) generatedAt: string;
  @ApiProperty({ type: [RetentionEntryDto] }) retentionPolicies: RetentionEntryDto[];
  @ApiProperty({ type: StorageUsageDto }) storageUsage: StorageUsageDto;
  @ApiProperty({ enum: ['COMPLIANT', 'ACTION_REQUIRED'] }) complianceStatus: string;
  @ApiProperty({ type: [String] }) recommendations: string[];
}

export class RetentionReportEnvelopeDto {
  @ApiProperty({ type: RetentionReportDto }) data: RetentionReportDto;
}
