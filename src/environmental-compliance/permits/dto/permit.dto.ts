import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEmail, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/pagination';
import {
  OptionalDateTime,
  OptionalDecimal,
  OptionalEnum,
  OptionalRef,
  OptionalText,
} from '../../../records/fields';
import { columnsOf, SortedPageQuery } from '../../../records/sorted-page-query';
import {
  EnvironmentalPermit,
  PERMIT_STATUSES,
  PERMIT_TYPES,
  PermitStatus,
  PermitType,
} from '../entities/environmental-permit.entity';

export const PERMIT_DATES = ['issueDate', 'expiryDate', 'renewalDate'] as const;

export class CreatePermitDto {
  @ApiProperty({ example: 'AIR-2026-0042', maxLength: 100, description: 'Unique in the client database' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  permitNumber: string;

  @ApiProperty({ example: 'Stack emissions permit', maxLength: 255 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  title: string;

  @OptionalText(10000) description?: string | null;

  @ApiProperty({ enum: PERMIT_TYPES })
  @IsIn(PERMIT_TYPES)
  permitType: PermitType;

  @OptionalEnum(PERMIT_STATUSES, 'ACTIVE') status?: PermitStatus;
  @OptionalText(255, 'Regional environment agency') issuingAuthority?: string | null;
  @OptionalText(255) authorityContact?: string | null;

  @ApiPropertyOptional({ nullable: true, type: String, example: 'permits@agency.example' })
  @IsOptional()
  @IsEmail()
  @MaxLength(255)
  authorityEmail?: string | null;

  @OptionalText(50) authorityPhone?: string | null;
  @OptionalDateTime('2025-01-01T00:00:00Z') issueDate?: string | null;
  @OptionalDateTime('2030-01-01T00:00:00Z') expiryDate?: string | null;
  @OptionalDateTime('2029-07-01T00:00:00Z') renewalDate?: string | null;
  @OptionalRef('Unit the permit covers (of the caller’s company)') unitId?: number | null;
  @OptionalText(10000) conditions?: string | null;
  @OptionalText(10000) restrictions?: string | null;
  @OptionalText(10000) emissionLimits?: string | null;
  @OptionalDecimal(2, 1200) permitFee?: number | null;
  @OptionalDecimal(2, 300) annualFee?: number | null;
  @OptionalText(10000) notes?: string | null;
}

export class UpdatePermitDto extends PartialType(CreatePermitDto) {}

export class PermitQueryDto extends SortedPageQuery(columnsOf(EnvironmentalPermit, ['expiryNoticeDays'])) {
  @OptionalEnum(PERMIT_STATUSES) status?: PermitStatus;
  @OptionalEnum(PERMIT_TYPES) permitType?: PermitType;
}

export class ExpiringPermitsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 3650, default: 90 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(3650)
  daysAhead = 90;
}

export class PermitsByStatusQueryDto extends PageQueryDto {
  @ApiProperty({ enum: PERMIT_STATUSES })
  @IsIn(PERMIT_STATUSES)
  status: PermitStatus;
}

export class PermitDto {
  @ApiProperty() id: number;
  @ApiProperty() permitNumber: string;
  @ApiProperty() title: string;
  @ApiPropertyOptional({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ enum: PERMIT_TYPES }) permitType: PermitType;
  @ApiProperty({ enum: PERMIT_STATUSES }) status: PermitStatus;
  @ApiPropertyOptional({ nullable: true, type: String }) issuingAuthority: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) authorityContact: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) authorityEmail: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) authorityPhone: string | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) issueDate: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) expiryDate: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) renewalDate: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) unitId: number | null;
  @ApiPropertyOptional({ nullable: true, type: String }) conditions: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) restrictions: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) emissionLimits: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) permitFee: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) annualFee: number | null;
  @ApiPropertyOptional({ nullable: true, type: String }) notes: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) companyId: number | null;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}
