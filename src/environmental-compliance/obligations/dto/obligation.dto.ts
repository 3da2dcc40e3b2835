import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/pagination';
import { OptionalDateTime, OptionalEnum, OptionalRef, OptionalText } from '../../../records/fields';
import { columnsOf, SortedPageQuery } from '../../../records/sorted-page-query';
import {
  ComplianceObligation,
  FREQUENCIES,
  Frequency,
  OBLIGATION_STATUSES,
  OBLIGATION_TYPES,
  ObligationStatus,
  ObligationType,
} from '../entities/compliance-obligation.entity';

export const OBLIGATION_DATES = ['nextDueDate'] as const;

export class CreateObligationDto {
  @ApiProperty({ description: 'Permit the obligation belongs to (of the caller’s company)' })
  @IsInt()
  @Min(1)
  permitId: number;

  @ApiProperty({ example: 'Quarterly emissions report', maxLength: 255 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  title: string;

  @OptionalText(10000) description?: string | null;

  @ApiProperty({ enum: OBLIGATION_TYPES })
  @IsIn(OBLIGATION_TYPES)
  obligationType: ObligationType;

  @OptionalEnum(OBLIGATION_STATUSES, 'ACTIVE') status?: ObligationStatus;

  @ApiProperty({ enum: FREQUENCIES })
  @IsIn(FREQUENCIES)
  frequency: Frequency;

  @OptionalDateTime('2026-12-31T00:00:00Z') nextDueDate?: string | null;
  @OptionalRef('User responsible (of the caller’s company)') responsibleUserId?: number | null;
  @OptionalText(10000) requirements?: string | null;
  @OptionalText(255, 'PDF via the agency portal') submissionFormat?: string | null;
  @OptionalText(10000) notes?: string | null;
}

export class UpdateObligationDto extends PartialType(CreateObligationDto) {}

export class ObligationQueryDto extends SortedPageQuery(columnsOf(ComplianceObligation)) {
  @OptionalEnum(OBLIGATION_STATUSES) status?: ObligationStatus;
  @OptionalEnum(OBLIGATION_TYPES) obligationType?: ObligationType;
}

export class ObligationPageQueryDto extends PageQueryDto {}

export class UpcomingObligationsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 3650, default: 30 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(3650)
  daysAhead = 30;
}

export class ObligationDto {
  @ApiProperty() id: number;
  @ApiProperty() permitId: number;
  @ApiProperty() title: string;
  @ApiPropertyOptional({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ enum: OBLIGATION_TYPES }) obligationType: ObligationType;
  @ApiProperty({ enum: OBLIGATION_STATUSES }) status: ObligationStatus;
  @ApiProperty({ enum: FREQUENCIES }) frequency: Frequency;
  @ApiPropertyOptional({ nullable: true, type: Date }) nextDueDate: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) lastCompletedDate: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) responsibleUserId: number | null;
  @ApiPropertyOptional({ nullable: true, type: String }) requirements: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) submissionFormat: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) notes: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) companyId: number | null;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}
