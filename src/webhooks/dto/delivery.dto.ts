import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const DELIVERY_STATUSES = ['PENDING', 'RETRYING', 'SUCCESS', 'FAILED'] as const;

export class DeliveryQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit = 50;
}

export class DeliveryDto {
  @ApiProperty() id: number;
  @ApiProperty() webhookId: number;
  @ApiProperty({ example: 'unit.created' }) eventType: string;
  @ApiProperty() eventId: string;
  @ApiProperty({ enum: DELIVERY_STATUSES }) status: string;
  @ApiProperty() attemptCount: number;
  @ApiProperty() maxAttempts: number;
  @ApiPropertyOptional({ nullable: true, type: Number }) responseStatus: number | null;
  @ApiPropertyOptional({ nullable: true, type: String }) errorMessage: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) durationMs: number | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) nextAttemptAt: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) completedAt: Date | null;
  @ApiProperty() createdAt: Date;
}

export class DeliveryEnvelopeDto {
  @ApiProperty({ type: DeliveryDto }) data: DeliveryDto;
}

export class DeliveryListDto {
  @ApiProperty({ type: [DeliveryDto] }) data: DeliveryDto[];
}
