import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { OptionalEnum } from '../../records/fields';
import { SortedPageQuery } from '../../records/sorted-page-query';

/** The body fields every unit record (work order, failure) takes; `examples` for Swagger. */
export function UnitRecordInputDto(examples: { title: string; unitId: string }) {
  class UnitRecordInput {
    @ApiProperty({ example: examples.title })
    @IsString()
    @IsNotEmpty()
    @MaxLength(200)
    title: string;

    @ApiPropertyOptional({ maxLength: 2000 })
    @IsOptional()
    @IsString()
    @MaxLength(2000)
    description?: string;

    @ApiProperty({ description: examples.unitId })
    @IsInt()
    @Min(1)
    unitId: number;
  }
  return UnitRecordInput;
}

/** A unit record list: sorted page, filtered by status and unit. */
export function UnitRecordQueryDto<S extends string>(sorts: readonly S[], statuses: readonly string[]) {
  class UnitRecordQuery extends SortedPageQuery(sorts) {
    @OptionalEnum(statuses)
    status?: string;

    @ApiPropertyOptional()
    @IsOptional()
    @Type(() => Number)
    @IsInt()
    @Min(1)
    unitId?: number;
  }
  return UnitRecordQuery;
}

/** The fields every unit record shows. */
export class UnitRecordDto {
  @ApiProperty() id: number;
  @ApiProperty() title: string;
  @ApiPropertyOptional({ nullable: true, type: String }) description: string | null;
  @ApiProperty() unitId: number;
  @ApiPropertyOptional({ nullable: true, type: Number }) companyId: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) createdById: number | null;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}
