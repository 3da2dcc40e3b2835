import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../common/pagination/pagination';
import {
  OptionalDateTime,
  OptionalDecimal,
  OptionalEnum,
  OptionalRef,
  OptionalText,
} from '../../records/fields';
import { columnsOf, SortedPageQuery } from '../../records/sorted-page-query';
import {
  APPROVAL_STATUSES,
  ApprovalStatus,
  OUTAGE_STATUSES,
  OUTAGE_TYPES,
  OutageEvent,
  OutageStatus,
  OutageType,
} from '../entities/outage-event.entity';

/** Body datetime fields, read as ISO 8601 (no zone means UTC). */
export const OUTAGE_DATES = ['plannedStart', 'plannedEnd', 'actualStart'] as const;

export class CreateOutageDto {
  @ApiProperty({ example: 'GT-1 hot gas path inspection', maxLength: 255 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  title: string;

  @OptionalText(10000) description?: string | null;

  @ApiProperty({ enum: OUTAGE_TYPES })
  @IsIn(OUTAGE_TYPES)
  outageType: OutageType;

  @OptionalRef('Unit out of service (of the caller’s company)') unitId?: number | null;
  @OptionalRef('Work order behind the outage') workOrderId?: number | null;
  @OptionalRef('Failure that caused the outage') failureId?: number | null;
  @OptionalRef('User who asked for the outage; default the caller') requestedById?: number | null;
  @OptionalDateTime('2026-12-01T06:00:00Z') plannedStart?: string | null;
  @OptionalDateTime('2026-12-05T18:00:00Z') plannedEnd?: string | null;
  @OptionalDateTime('2026-12-01T06:30:00Z') actualStart?: string | null;
  @OptionalDecimal(3, 250.5) capacityMw?: number | null;
  @OptionalDecimal(3, 120) lostCapacityMw?: number | null;
  @OptionalDecimal(3, 130.5) remainingCapacityMw?: number | null;
  @OptionalDecimal(2, 150000) estimatedCost?: number | null;
  @OptionalDecimal(2, 142300.5) actualCost?: number | null;
  @OptionalDecimal(2, 98000) lostRevenue?: number | null;
  @OptionalText(10000) rootCause?: string | null;
  @OptionalText(10000) correctiveAction?: string | null;
}

export class UpdateOutageDto extends PartialType(CreateOutageDto) {}

export class OutageQueryDto extends SortedPageQuery(columnsOf(OutageEvent, ['deletedAt'])) {
  @OptionalEnum(OUTAGE_STATUSES) status?: OutageStatus;
  @OptionalEnum(OUTAGE_TYPES) outageType?: OutageType;
  @OptionalEnum(APPROVAL_STATUSES) approvalStatus?: ApprovalStatus;
}

/** `page` and `pageSize` of the fixed-order listings (active, by unit). */
export class OutagePageQueryDto extends PageQueryDto {}

export class CompleteOutageDto {
  @ApiPropertyOptional({ example: 'Returned to service after inspection', maxLength: 10000 })
  @IsOptional()
  @IsString()
  @MaxLength(10000)
  completionNotes?: string;
}

export class ApprovalNotesDto {
  @ApiPropertyOptional({ example: 'Fits the grid operator’s window', maxLength: 10000 })
  @IsOptional()
  @IsString()
  @MaxLength(10000)
  approvalNotes?: string;
}

export class OutageDto {
  @ApiProperty() id: number;
  @ApiProperty({ example: 'OUT-000042' }) outageNumber: string;
  @ApiProperty() title: string;
  @ApiPropertyOptional({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ enum: OUTAGE_TYPES }) outageType: OutageType;
  @ApiProperty({ enum: OUTAGE_STATUSES }) status: OutageStatus;
  @ApiPropertyOptional({ nullable: true, type: Number }) unitId: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) workOrderId: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) failureId: number | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) plannedStart: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) plannedEnd: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) actualStart: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) actualEnd: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) capacityMw: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) lostCapacityMw: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) remainingCapacityMw: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) estimatedCost: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) actualCost: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) lostRevenue: number | null;
  @ApiProperty({ enum: APPROVAL_STATUSES }) approvalStatus: ApprovalStatus;
  @ApiPropertyOptional({ nullable: true, type: Number }) requestedById: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) approvedById: number | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) approvalDate: Date | null;
  @ApiPropertyOptional({ nullable: true, type: String }) approvalNotes: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) rootCause: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) correctiveAction: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) completionNotes: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) companyId: number | null;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

class CompletedOutageDto {
  @ApiProperty() id: number;
  @ApiProperty({ enum: OUTAGE_STATUSES, example: 'COMPLETED' }) status: OutageStatus;
  @ApiProperty() actualEnd: Date;
}

/** The answer of complete: `{ data: { id, status, actualEnd }, message }`. */
export class CompleteOutageResponseDto {
  @ApiProperty({ type: CompletedOutageDto }) data: CompletedOutageDto;
  @ApiProperty({ example: 'Outage OUT-000042 completed' }) message: string;
}
