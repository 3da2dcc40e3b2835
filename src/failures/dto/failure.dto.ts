import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDateString, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { PageQueryDto } from '../../common/pagination/pagination';
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

export class CreateFailureDto {
  @ApiProperty({ example: 'Bearing overheating' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  title: string;

  @ApiPropertyOptional({ maxLength: 2000 })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @ApiProperty({ description: 'Unit that failed' })
  @IsInt()
  @Min(1)
  unitId: number;

  @ApiPropertyOptional({ nullable: true, type: Number, description: 'Work order handling the failure' })
  @IsOptional()
  @IsInt()
  @Min(1)
  workOrderId?: number | null;

  @ApiPropertyOptional({ enum: SEVERITIES, default: 'MEDIUM' })
  @IsOptional()
  @IsIn(SEVERITIES)
  severity?: Severity;

  @ApiPropertyOptional({ enum: FAILURE_STATUSES, default: 'OPEN' })
  @IsOptional()
  @IsIn(FAILURE_STATUSES)
  status?: FailureStatus;

  @ApiPropertyOptional({ example: '2026-11-20T08:30:00Z' })
  @IsOptional()
  @IsDateString()
  occurredAt?: string;
}

export class UpdateFailureDto extends PartialType(CreateFailureDto) {}

export class FailureQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: FAILURE_SORTS, default: 'id' })
  @IsOptional()
  @IsIn(FAILURE_SORTS)
  sort: (typeof FAILURE_SORTS)[number] = 'id';

  @ApiPropertyOptional({ enum: ['ASC', 'DESC'], default: 'DESC' })
  @IsOptional()
  @IsIn(['ASC', 'DESC'])
  order: 'ASC' | 'DESC' = 'DESC';

  @ApiPropertyOptional({ enum: FAILURE_STATUSES })
  @IsOptional()
  @IsIn(FAILURE_STATUSES)
  status?: FailureStatus;

  @ApiPropertyOptional()
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  unitId?: number;
}

export class FailureDto {
  @ApiProperty() id: number;
  @ApiProperty() title: string;
  @ApiPropertyOptional({ nullable: true, type: String }) description: string | null;
  @ApiProperty() unitId: number;
  @ApiPropertyOptional({ nullable: true, type: Number }) workOrderId: number | null;
  @ApiProperty({ enum: SEVERITIES }) severity: Severity;
  @ApiProperty({ enum: FAILURE_STATUSES }) status: FailureStatus;
  @ApiPropertyOptional({ nullable: true, type: Date }) occurredAt: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) resolvedAt: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) companyId: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) createdById: number | null;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export class FailureEnvelopeDto {
  @ApiProperty({ type: FailureDto }) data: FailureDto;
}

export class FailurePageDto {
  @ApiProperty({ type: [FailureDto] }) data: FailureDto[];
  @ApiProperty({ example: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 } } })
  meta: { pagination: { page: number; pageSize: number; pageCount: number; total: number } };
}
