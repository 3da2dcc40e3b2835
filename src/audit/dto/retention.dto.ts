import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';

export class SetRetentionPolicyDto {
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: 36500,
    example: 365,
    description: 'Days an entry is kept',
  })
  @IsInt()
  @Min(1)
  @Max(36500)
  retentionDays: number;
}

export class RetentionPolicyDto {
  @ApiProperty({ example: 'Unit', description: '`*` is the tenant default' }) entityType: string;
  @ApiProperty({ example: 365 }) retentionDays: number;
  @ApiProperty({ nullable: true, type: 'integer' }) updatedById: number | null;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class RetentionPoliciesDto {
  @ApiProperty({ example: 2555, description: 'Applies to entity types without a policy' })
  defaultRetentionDays: number;
  @ApiProperty({ type: [RetentionPolicyDto] }) policies: RetentionPolicyDto[];
}

export class RetentionPoliciesEnvelopeDto {
  @ApiProperty({ type: RetentionPoliciesDto }) data: RetentionPoliciesDto;
}

export class RetentionPolicyEnvelopeDto {
  @ApiProperty({ type: RetentionPolicyDto }) data: RetentionPolicyDto;
}

export class RetentionRunDto {
  @ApiProperty({ example: 120 }) deleted: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { public: 120 },
    description: 'Entries removed per schema',
  })
  schemas: Record<string, number>;
}

export class RetentionRunEnvelopeDto {
  @ApiProperty({ type: RetentionRunDto }) data: RetentionRunDto;
}
