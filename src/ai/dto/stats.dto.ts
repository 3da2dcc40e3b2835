import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { OptionalDateTime } from '../../records/fields';

const WINDOW = /^[1-9]\d{0,3}(m|h|d)$/;

export class StatsQueryDto {
  @OptionalDateTime('2026-11-01T00:00:00Z') startTime?: string;
  @OptionalDateTime('2026-11-24T00:00:00Z') endTime?: string;
}

export class CostsQueryDto extends StatsQueryDto {
  @ApiPropertyOptional({ default: '1d', description: 'Bucket size: <n>m, <n>h or <n>d, aligned to UTC' })
  @IsOptional()
  @Matches(WINDOW, { message: 'windowSize must look like 15m, 1h or 1d' })
  windowSize?: string;

  @ApiPropertyOptional({ default: 10, minimum: 1, maximum: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  userLimit?: number;
}

export class ConversationsQueryDto extends StatsQueryDto {
  @ApiPropertyOptional({ default: '1h', description: 'Bucket size: <n>m, <n>h or <n>d, aligned to UTC' })
  @IsOptional()
  @Matches(WINDOW, { message: 'windowSize must look like 15m, 1h or 1d' })
  windowSize?: string;
}

export class UserExchangesQueryDto extends StatsQueryDto {
  @ApiPropertyOptional({ default: 50, minimum: 1, maximum: 500 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;
}

/** `15m` → `15 minutes` (a PostgreSQL interval). */
export function windowInterval(size: string): string {
  return `${windowMinutes(size)} minutes`;
}

/** The minutes of a validated window size (`<n>m`, `<n>h` or `<n>d`). */
export function windowMinutes(size: string): number {
  return Number(size.slice(0, -1)) * { m: 1, h: 60, d: 1440 }[size.slice(-1) as 'm' | 'h' | 'd'];
}

interface CountTokens {
  count: number;
  totalTokens: number;
}
interface Latency {
  avgMs: number;
  p95Ms: number;
}
export class StatsDto {
  @ApiProperty() startTime: string;
  @ApiProperty() endTime: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: {
      type: 'object',
      properties: { count: { type: 'integer' }, totalTokens: { type: 'integer' } },
    },
  })
  statsByProvider: Record<string, CountTokens>;
  @ApiProperty({
    type: 'object',
    additionalProperties: {
      type: 'object',
      properties: { count: { type: 'integer' }, totalTokens: { type: 'integer' } },
    },
  })
  statsByModel: Record<string, CountTokens>;
  @ApiProperty({
    type: 'object',
    additionalProperties: {
      type: 'object',
      properties: { avgMs: { type: 'number' }, p95Ms: { type: 'number' } },
    },
  })
  latencyByModel: Record<string, Latency>;
}
export class StatsEnvelopeDto {
  @ApiProperty({ type: StatsDto }) data: StatsDto;
}

class CostPoint {
  @ApiProperty() time: string;
  @ApiProperty() cost: number;
}
class UserCost {
  @ApiProperty() username: string;
  @ApiProperty() cost: number;
}
export class CostsDto {
  @ApiProperty() startTime: string;
  @ApiProperty() endTime: string;
  @ApiProperty({ type: [CostPoint] }) costOverTime: CostPoint[];
  @ApiProperty({ type: 'object', additionalProperties: { type: 'number' } }) costByProvider: Record<
    string,
    number
  >;
  @ApiProperty({ type: [UserCost] }) costByUser: UserCost[];
}
export class CostsEnvelopeDto {
  @ApiProperty({ type: CostsDto }) data: CostsDto;
}

class ConversationPoint {
  @ApiProperty() time: string;
  @ApiProperty() exchanges: number;
  @ApiProperty() conversations: number;
}
export class ConversationsDto {
  @ApiProperty() startTime: string;
  @ApiProperty() endTime: string;
  @ApiProperty() windowSize: string;
  @ApiProperty() totalExchanges: number;
  @ApiProperty({ description: 'Distinct conversationIds' }) totalConversations: number;
  @ApiProperty({ type: [ConversationPoint] }) overTime: ConversationPoint[];
}
export class ConversationsEnvelopeDto {
  @ApiProperty({ type: ConversationsDto }) data: ConversationsDto;
}

export class AiExchangeDto {
  @ApiProperty() id: string;
  @ApiProperty() occurredAt: string;
  @ApiProperty({ type: 'integer', nullable: true }) userId: number | null;
  @ApiProperty() username: string;
  @ApiProperty({ type: 'integer', nullable: true }) companyId: number | null;
  @ApiProperty({ example: 'OPENAI' }) provider: string;
  @ApiProperty() model: string;
  @ApiProperty() inputTokens: number;
  @ApiProperty() outputTokens: number;
  @ApiProperty() totalTokens: number;
  @ApiProperty() estimatedCost: number;
  @ApiProperty() latencyMs: number;
  @ApiProperty({ type: String, nullable: true }) conversationId: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) metadata: Record<
    string,
    unknown
  > | null;
  @ApiProperty() success: boolean;
}
export class ExchangesEnvelopeDto {
  @ApiProperty({ type: [AiExchangeDto] }) data: AiExchangeDto[];
}
