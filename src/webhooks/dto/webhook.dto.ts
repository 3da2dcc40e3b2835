import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
} from 'class-validator';
import { isKnownEvent } from '../event-catalogue';
import { IsHttpHeaders } from './http-header-rules';

export const HTTP_METHODS = ['POST', 'PUT', 'PATCH'] as const;

const IsWebhookEvent = () =>
  ValidateBy(
    {
      name: 'isWebhookEvent',
      validator: {
        validate: (value: unknown) => isKnownEvent(value),
        defaultMessage: (args) =>
          `events contains an unknown event code "${String(args?.value)}" (see GET /api/admin/webhooks/event-types)`,
      },
    },
    { each: true },
  );

export class CreateWebhookDto {
  @ApiProperty({ maxLength: 100, example: 'ERP sync' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiProperty({ example: 'https://erp.example.com/hooks/svc', description: 'http(s); https recommended' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  url: string;

  @ApiPropertyOptional({ nullable: true, type: Number, description: 'null (default) means system-wide' })
  @IsOptional()
  @IsInt()
  @Min(1)
  companyId?: number | null;

  @ApiPropertyOptional({
    type: [String],
    example: ['unit.created', 'work_order.status_changed'],
    default: [],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @IsWebhookEvent()
  events?: string[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    default: {},
    description: 'Names are HTTP tokens; values visible ASCII, spaces and tabs only (no CR/LF, no non-ASCII)',
  })
  @IsOptional()
  @IsObject()
  @IsHttpHeaders()
  customHeaders?: Record<string, string>;

  @ApiPropertyOptional({ enum: HTTP_METHODS, default: 'POST' })
  @IsOptional()
  @IsIn(HTTP_METHODS)
  httpMethod?: (typeof HTTP_METHODS)[number];

  @ApiPropertyOptional({ default: 'application/json' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  @Matches(/^[\w.+-]+\/[\w.+-]+(\s*;\s*[\w.-]+=[\w.-]+)*$/, { message: 'contentType must be a media type' })
  contentType?: string;

  @ApiPropertyOptional({ default: 30000, minimum: 100, maximum: 60000 })
  @IsOptional()
  @IsInt()
  @Min(100)
  @Max(60000)
  timeoutMs?: number;

  @ApiPropertyOptional({ default: 3, minimum: 0, maximum: 10 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10)
  maxRetries?: number;

  @ApiPropertyOptional({ default: true, description: 'false skips certificate checks only' })
  @IsOptional()
  @IsBoolean()
  verifySsl?: boolean;

  @ApiPropertyOptional({ default: 10, minimum: 0, description: '0 means never' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1000)
  autoDisableAfterFailures?: number;
}

export class UpdateWebhookDto extends PartialType(CreateWebhookDto) {}

export class WebhookDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiPropertyOptional({ nullable: true, type: String }) description: string | null;
  @ApiProperty() url: string;
  @ApiPropertyOptional({ nullable: true, type: Number }) companyId: number | null;
  @ApiProperty({ type: [String] }) events: string[];
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) customHeaders: Record<
    string,
    string
  >;
  @ApiProperty({ enum: HTTP_METHODS }) httpMethod: string;
  @ApiProperty() contentType: string;
  @ApiProperty() timeoutMs: number;
  @ApiProperty() maxRetries: number;
  @ApiProperty() verifySsl: boolean;
  @ApiProperty() autoDisableAfterFailures: number;
  @ApiProperty() isActive: boolean;
  @ApiProperty() consecutiveFailures: number;
  @ApiPropertyOptional({ nullable: true, type: String }) disabledReason: string | null;
  @ApiProperty() hasSecret: boolean;
  @ApiProperty({ example: 'whsec_AbCd...' }) secretPreview: string;
  @ApiPropertyOptional({ nullable: true, type: Date }) lastDeliveryAt: Date | null;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export class WebhookEnvelopeDto {
  @ApiProperty({ type: WebhookDto }) data: WebhookDto;
}

export class WebhookListDto {
  @ApiProperty({ type: [WebhookDto] }) data: WebhookDto[];
}

export class CreatedWebhookDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty() url: string;
  @ApiProperty() isActive: boolean;
  @ApiProperty({ type: [String] }) events: string[];
  @ApiProperty() hasSecret: boolean;
  @ApiProperty() secretPreview: string;
  @ApiProperty() createdAt: Date;
  @ApiProperty({ description: 'The full secret; shown only here and by regenerate-secret' }) secret: string;
}

export class SecretMetaDto {
  @ApiProperty({ example: 'Save this secret now: it will not be shown again.' }) message: string;
}

export class CreatedWebhookEnvelopeDto {
  @ApiProperty({ type: CreatedWebhookDto }) data: CreatedWebhookDto;
  @ApiProperty({ type: SecretMetaDto }) meta: SecretMetaDto;
}

export class RegeneratedSecretDto {
  @ApiProperty() id: number;
  @ApiProperty() hasSecret: boolean;
  @ApiProperty() secretPreview: string;
  @ApiProperty() secret: string;
}

export class RegeneratedSecretEnvelopeDto {
  @ApiProperty({ type: RegeneratedSecretDto }) data: RegeneratedSecretDto;
  @ApiProperty({ type: SecretMetaDto }) meta: SecretMetaDto;
}

export class EventTypeDto {
  @ApiProperty({ example: 'unit.created' }) code: string;
  @ApiProperty({ example: 'Assets' }) group: string;
  @ApiProperty() description: string;
}

export class EventTypeListDto {
  @ApiProperty({ type: [EventTypeDto] }) data: EventTypeDto[];
}
