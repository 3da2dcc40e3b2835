import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { OptionalDateTime, OptionalEnum, OptionalText } from '../../../records/fields';
import { columnsOf, SortedPageQuery } from '../../../records/sorted-page-query';
import {
  ComplianceSubmission,
  SUBMISSION_STATUSES,
  SubmissionStatus,
} from '../entities/compliance-submission.entity';

export const SUBMISSION_DATES = ['periodStart', 'periodEnd'] as const;

export class CreateSubmissionDto {
  @ApiProperty({ description: 'Obligation the submission answers (of the caller’s company)' })
  @IsInt()
  @Min(1)
  obligationId: number;

  @ApiProperty({ example: 'Q4 2026 emissions report', maxLength: 255 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  title: string;

  @OptionalText(100, 'AGY-2026-7781') submissionReference?: string | null;
  @OptionalText(10000) description?: string | null;
  @OptionalDateTime('2026-10-01T00:00:00Z') periodStart?: string | null;
  @OptionalDateTime('2026-12-31T23:59:59Z') periodEnd?: string | null;
  @OptionalText(100000) submissionData?: string | null;
  @OptionalText(10000) notes?: string | null;
}

export class UpdateSubmissionDto extends PartialType(CreateSubmissionDto) {}

export class SubmissionQueryDto extends SortedPageQuery(columnsOf(ComplianceSubmission)) {
  @OptionalEnum(SUBMISSION_STATUSES) status?: SubmissionStatus;
  @ApiPropertyOptional({ description: 'Only the submissions of this obligation' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  obligationId?: number;
}

export class ReviewNotesDto {
  @ApiPropertyOptional({ example: 'Figures match the monitoring log', maxLength: 10000 })
  @IsOptional()
  @IsString()
  @MaxLength(10000)
  reviewNotes?: string;
}

export class RejectSubmissionDto {
  @ApiProperty({ example: 'Period does not match the permit’s reporting period', maxLength: 10000 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(10000)
  rejectionReason: string;
}

export class SubmissionDto {
  @ApiProperty() id: number;
  @ApiProperty() obligationId: number;
  @ApiPropertyOptional({ nullable: true, type: String }) submissionReference: string | null;
  @ApiProperty() title: string;
  @ApiPropertyOptional({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ enum: SUBMISSION_STATUSES }) status: SubmissionStatus;
  @ApiPropertyOptional({ nullable: true, type: Date }) periodStart: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) periodEnd: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) submittedDate: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) reviewDate: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) approvalDate: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) submittedById: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) reviewedById: number | null;
  @ApiPropertyOptional({ nullable: true, type: String }) submissionData: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) reviewNotes: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) rejectionReason: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) notes: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) companyId: number | null;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}
