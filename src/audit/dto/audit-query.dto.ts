import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsIP,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { AUDIT_ACTIONS, AuditAction } from '../../audit-trail/audit-log.entity';
import { IsDateTimeText } from '../../common/validation/datetime';
import { ZeroBasedPageQueryDto } from '../../common/pagination/zero-based-page-query';

const DATE_HINT = 'ISO date (`2026-01-31`, a whole UTC day when used as endDate) or date-time';

/** Optional period of any audit query. */
export class AuditRangeQueryDto extends ZeroBasedPageQueryDto {
  @ApiPropertyOptional({ description: DATE_HINT, example: '2026-01-01' })
  @IsOptional()
  @IsDateTimeText()
  startDate?: string;

  @ApiPropertyOptional({ description: DATE_HINT, example: '2026-01-31' })
  @IsOptional()
  @IsDateTimeText()
  endDate?: string;
}

export class TimeRangeQueryDto extends ZeroBasedPageQueryDto {
  @ApiProperty({ description: DATE_HINT, example: '2026-01-01' })
  @IsDateTimeText()
  startDate: string;

  @ApiProperty({ description: DATE_HINT, example: '2026-01-31' })
  @IsDateTimeText()
  endDate: string;
}

export class SearchQueryDto extends AuditRangeQueryDto {
  @ApiProperty({ description: 'Text matched anywhere in the message, case-insensitively', example: 'Unit' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  query: string;
}

export class ErrorsQueryDto extends AuditRangeQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 400,
    maximum: 599,
    description: 'Only errors answered with this status',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(400)
  @Max(599)
  status?: number;

  @ApiPropertyOptional({ example: 'CONFLICT', description: 'Only errors with this code' })
  @IsOptional()
  @Matches(/^[A-Z0-9_]{1,60}$/, { message: 'code must be an upper-case error code' })
  code?: string;
}

/** Period of a report; both optional (default: the last 30 days). */
export class ReportPeriodDto {
  @ApiPropertyOptional({ description: `${DATE_HINT}; default 30 days before endDate` })
  @IsOptional()
  @IsDateTimeText()
  startDate?: string;

  @ApiPropertyOptional({ description: `${DATE_HINT}; default now` })
  @IsOptional()
  @IsDateTimeText()
  endDate?: string;
}

export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Filters of the export: those of the other queries, combined with AND. */
export class ExportQueryDto extends ReportPeriodDto {
  @ApiPropertyOptional({ enum: EXPORT_FORMATS, default: 'csv' })
  @IsOptional()
  @IsIn(EXPORT_FORMATS)
  format: ExportFormat = 'csv';

  @ApiPropertyOptional({ enum: AUDIT_ACTIONS })
  @IsOptional()
  @IsIn(AUDIT_ACTIONS)
  action?: AuditAction;

  @ApiPropertyOptional({ example: 'Unit' })
  @IsOptional()
  @Matches(/^[A-Za-z][A-Za-z0-9_.:-]{0,99}$/, { message: 'entityType must be a type name' })
  entityType?: string;

  @ApiPropertyOptional({ example: 12 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  entityId?: number;

  @ApiPropertyOptional({ example: 3 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  userId?: number;

  @ApiPropertyOptional({ example: '10.0.0.7' })
  @IsOptional()
  @IsIP(undefined, { message: 'ipAddress must be an IPv4 or IPv6 address' })
  ipAddress?: string;

  @ApiPropertyOptional({ description: 'Text matched in the message' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  query?: string;

  @ApiPropertyOptional({ enum: ['security', 'errors'], description: 'Only security events or only errors' })
  @IsOptional()
  @IsIn(['security', 'errors'])
  category?: 'security' | 'errors';
}
