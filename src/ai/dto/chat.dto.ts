import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';

export class ChatMessageDto {
  @ApiProperty({ enum: ['user', 'assistant', 'system'] })
  @IsIn(['user', 'assistant', 'system'])
  role: 'user' | 'assistant' | 'system';

  @ApiProperty({ example: 'Summarise the last outage of unit 4.' })
  @IsString()
  @MaxLength(200000)
  content: string;

  @ApiPropertyOptional({ description: 'Name of the participant' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  name?: string;
}

export class ChatRequestDto {
  @ApiProperty({
    description: 'Provider code, any case',
    enum: ['openai', 'anthropic', 'gemini', 'azure-openai', 'ollama'],
  })
  @IsString()
  @MinLength(1)
  @MaxLength(40)
  provider: string;

  @ApiPropertyOptional({ description: "Model; the provider's default model when absent" })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  model?: string;

  @ApiProperty({ type: [ChatMessageDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => ChatMessageDto)
  messages: ChatMessageDto[];

  @ApiPropertyOptional({ description: 'System prompt placed before the messages' })
  @IsOptional()
  @IsString()
  @MaxLength(100000)
  systemPrompt?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 2 })
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(2)
  temperature?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 1000000,
    description: 'Upper bound of output tokens',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000000)
  maxTokens?: number;

  @ApiPropertyOptional({ description: 'Links related exchanges in the log' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  conversationId?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Kept with the logged exchange',
  })
  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'Answer as Server-Sent Events (delta events, then result)' })
  @IsOptional()
  @IsBoolean()
  stream?: boolean;
}

export class ChatResultDto {
  @ApiProperty() content: string;
  @ApiProperty({ example: 'OPENAI' }) provider: string;
  @ApiProperty() model: string;
  @ApiProperty() inputTokens: number;
  @ApiProperty() outputTokens: number;
  @ApiProperty() totalTokens: number;
  @ApiProperty({ description: 'USD from the price table' }) estimatedCost: number;
  @ApiProperty() latencyMs: number;
}

export class ChatResultEnvelopeDto {
  @ApiProperty({ type: ChatResultDto }) data: ChatResultDto;
}

export class ProviderInfoDto {
  @ApiProperty({ example: 'OPENAI' }) provider: string;
  @ApiProperty() available: boolean;
  @ApiProperty() defaultModel: string;
  @ApiProperty({ type: [String] }) availableModels: string[];
}

export class ProviderInfoEnvelopeDto {
  @ApiProperty({ type: ProviderInfoDto }) data: ProviderInfoDto;
}

export class ProvidersDto {
  @ApiProperty({ type: [ProviderInfoDto] }) providers: ProviderInfoDto[];
  @ApiProperty({ type: [String] }) availableProviders: string[];
  @ApiProperty() loggingEnabled: boolean;
}

export class ProvidersEnvelopeDto {
  @ApiProperty({ type: ProvidersDto }) data: ProvidersDto;
}

export class AiHealthDto {
  @ApiProperty({ example: 'UP', description: 'UP with at least one provider available, else DOWN' })
  status: string;
  @ApiProperty({ type: [String] }) availableProviders: string[];
  @ApiProperty() providerCount: number;
  @ApiProperty() loggingEnabled: boolean;
}

export class AiHealthEnvelopeDto {
  @ApiProperty({ type: AiHealthDto }) data: AiHealthDto;
}
