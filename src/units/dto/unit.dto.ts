import { EngineQueryDto } from '../../records/engine-query';
import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { UNIT_STATUSES, UnitStatus } from '../entities/unit.entity';

export class CreateUnitDto {
  @ApiProperty({ example: 'Gas turbine 1' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  @ApiPropertyOptional({ example: 'GT-1', description: 'Unique per company' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(50)
  code?: string;

  @ApiPropertyOptional({ example: 'GAS_TURBINE' })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  type?: string;

  @ApiPropertyOptional({ example: 250.5, description: 'Installed capacity in MW' })
  @IsOptional()
  @IsNumber({ maxDecimalPlaces: 3 })
  @Min(0)
  @Max(100000)
  capacityMw?: number;

  @ApiPropertyOptional({ example: 'North plant' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  location?: string;

  @ApiPropertyOptional({ enum: UNIT_STATUSES, default: 'OPERATIONAL' })
  @IsOptional()
  @IsIn(UNIT_STATUSES)
  status?: UnitStatus;
}

export class UpdateUnitDto extends PartialType(CreateUnitDto) {}

export class UnitQueryDto extends EngineQueryDto {
  @ApiPropertyOptional({ enum: UNIT_STATUSES })
  @IsOptional()
  @IsIn(UNIT_STATUSES)
  status?: UnitStatus;

  @ApiPropertyOptional({ description: 'Matches name or code' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  search?: string;
}

export class UnitDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiPropertyOptional({ nullable: true, type: String }) code: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) type: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) capacityMw: number | null;
  @ApiPropertyOptional({ nullable: true, type: String }) location: string | null;
  @ApiProperty({ enum: UNIT_STATUSES }) status: UnitStatus;
  @ApiPropertyOptional({ nullable: true, type: Number }) companyId: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) createdById: number | null;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: Date | string;
  @ApiProperty({ type: String, format: 'date-time' }) updatedAt: Date | string;
}
