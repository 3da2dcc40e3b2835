import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { OptionalDateTime, OptionalEnum } from '../../records/fields';
import { UnitRecordDto, UnitRecordInputDto, UnitRecordQueryDto } from '../../units';
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

const INPUT_EXAMPLES = { title: 'Replace fuel nozzle', unitId: 'Unit the work order is for' };

export class CreateWorkOrderDto extends UnitRecordInputDto(INPUT_EXAMPLES) {
  @OptionalEnum(WORK_ORDER_STATUSES, 'OPEN') status?: WorkOrderStatus;
  @OptionalEnum(PRIORITIES, 'MEDIUM') priority?: Priority;
  @OptionalDateTime('2026-12-01T00:00:00Z') dueDate?: string;
}

export class UpdateWorkOrderDto extends PartialType(CreateWorkOrderDto) {}

export class WorkOrderQueryDto extends UnitRecordQueryDto(WORK_ORDER_SORTS, WORK_ORDER_STATUSES) {}

export class WorkOrderDto extends UnitRecordDto {
  @ApiProperty({ enum: WORK_ORDER_STATUSES }) status: WorkOrderStatus;
  @ApiProperty({ enum: PRIORITIES }) priority: Priority;
  @ApiPropertyOptional({ nullable: true, type: Date }) dueDate: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) completedAt: Date | null;
}
