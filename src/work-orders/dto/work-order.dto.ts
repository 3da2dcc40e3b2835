import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDateString, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { PageQueryDto } from '../../common/pagination/pagination';
import { Priority, PRIORITIES, WORK_ORDER_STATUSES, WorkOrderStatus } from '../entities/work-order.entity';

export const WORK_ORDER_SORTS = [
  'id',
  'title',
  'status',
  'priority',
  'dueDate',
  'createdAt',
  'updatedAt',
] as const;

export class CreateWorkOrderDto {
  @ApiProperty({ example: 'Replace fuel nozzle' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  title: string;

  @ApiPropertyOptional({ maxLength: 2000 })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @ApiProperty({ description: 'Unit the work order is for' })
  @IsInt()
  @Min(1)
  unitId: number;

  @ApiPropertyOptional({ enum: WORK_ORDER_STATUSES, default: 'OPEN' })
  @IsOptional()
  @IsIn(WORK_ORDER_STATUSES)
  status?: WorkOrderStatus;

  @ApiPropertyOptional({ enum: PRIORITIES, default: 'MEDIUM' })
  @IsOptional()
  @IsIn(PRIORITIES)
  priority?: Priority;

  @ApiPropertyOptional({ example: '2026-12-01T00:00:00Z' })
  @IsOptional()
  @IsDateString()
  dueDate?: string;
}

export class UpdateWorkOrderDto extends PartialType(CreateWorkOrderDto) {}

export class WorkOrderQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: WORK_ORDER_SORTS, default: 'id' })
  @IsOptional()
  @IsIn(WORK_ORDER_SORTS)
  sort: (typeof WORK_ORDER_SORTS)[number] = 'id';

  @ApiPropertyOptional({ enum: ['ASC', 'DESC'], default: 'DESC' })
  @IsOptional()
  @IsIn(['ASC', 'DESC'])
  order: 'ASC' | 'DESC' = 'DESC';

  @ApiPropertyOptional({ enum: WORK_ORDER_STATUSES })
  @IsOptional()
  @IsIn(WORK_ORDER_STATUSES)
  status?: WorkOrderStatus;

  @ApiPropertyOptional()
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  unitId?: number;
}

export class WorkOrderDto {
  @ApiProperty() id: number;
  @ApiProperty() title: string;
  @ApiPropertyOptional({ nullable: true, type: String }) description: string | null;
  @ApiProperty() unitId: number;
  @ApiProperty({ enum: WORK_ORDER_STATUSES }) status: WorkOrderStatus;
  @ApiProperty({ enum: PRIORITIES }) priority: Priority;
  @ApiPropertyOptional({ nullable: true, type: Date }) dueDate: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) completedAt: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) companyId: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) createdById: number | null;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export class WorkOrderEnvelopeDto {
  @ApiProperty({ type: WorkOrderDto }) data: WorkOrderDto;
}

export class WorkOrderPageDto {
  @ApiProperty({ type: [WorkOrderDto] }) data: WorkOrderDto[];
  @ApiProperty({ example: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 } } })
  meta: { pagination: { page: number; pageSize: number; pageCount: number; total: number } };
}
