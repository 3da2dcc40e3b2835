import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsInt, IsOptional, Min } from 'class-validator';
import { OptionalDateTime, OptionalEnum } from '../../records/fields';
import { UnitRecordDto, UnitRecordInputDto, UnitRecordQueryDto } from '../../units';
import { FAILURE_STATUSES, FailureStatus, Severity, SEVERITIES } from '../entities/failure.entity';

export const FAILURE_SORTS = [
  'id',
  'title',
  'status',
  'severity',
  'occurredAt',
  'createdAt',
  'updatedAt',
] as const;

export class CreateFailureDto extends UnitRecordInputDto({
  title: 'Bearing overheating',
  unitId: 'Unit that failed',
}) {
  @OptionalEnum(SEVERITIES, 'MEDIUM') severity?: Severity;
  @OptionalEnum(FAILURE_STATUSES, 'OPEN') status?: FailureStatus;
  @OptionalDateTime('2026-11-20T08:30:00Z') occurredAt?: string;

  @ApiPropertyOptional({ nullable: true, type: Number, description: 'Work order handling the failure' })
  @IsOptional()
  @IsInt()
  @Min(1)
  workOrderId?: number | null;
}

export class UpdateFailureDto extends PartialType(CreateFailureDto) {}

export class FailureQueryDto extends UnitRecordQueryDto(FAILURE_SORTS, FAILURE_STATUSES) {}

export class FailureDto extends UnitRecordDto {
  @ApiPropertyOptional({ nullable: true, type: Number }) workOrderId: number | null;
  @ApiProperty({ enum: SEVERITIES }) severity: Severity;
  @ApiProperty({ enum: FAILURE_STATUSES }) status: FailureStatus;
  @ApiPropertyOptional({ nullable: true, type: Date }) occurredAt: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) resolvedAt: Date | null;
}
