import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';

const COMPONENTS: ApiPropertyOptions = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    properties: { status: { type: 'string', enum: ['up', 'down'] }, message: { type: 'string' } },
    required: ['status'],
    additionalProperties: true,
  },
  description:
    'Component name (database, broker, cache, storage, ocr, timeseries, client:<identifier>) → state',
};

/** The health report (Terminus format) of `/management/health` and its readiness probe. */
export class HealthReportDto {
  @ApiProperty({ enum: ['ok', 'error', 'shutting_down'] }) status: string;
  @ApiPropertyOptional(COMPONENTS) info?: Record<string, unknown>;
  @ApiPropertyOptional(COMPONENTS) error?: Record<string, unknown>;
  @ApiPropertyOptional(COMPONENTS) details?: Record<string, unknown>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'boolean' },
    description: 'Feature flags (full report only)',
  })
  features?: Record<string, boolean>;
}

export class LivenessDto {
  @ApiProperty({ enum: ['ok'] }) status: string;
}
