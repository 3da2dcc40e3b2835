import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { toBool, toInt } from '../config/load-settings';

/** Settings of the AI chat gateway (see .env.example, `# AI chat`). */
export class AiSettings {
  @IsOptional() @IsString() OPENAI_API_KEY?: string = undefined;
  /** Ends in `/v1`, as the SDK takes it. */
  @IsString() OPENAI_BASE_URL = 'https://api.openai.com/v1';
  @IsString() OPENAI_DEFAULT_MODEL = 'gpt-4o-mini';

  @IsOptional() @IsString() ANTHROPIC_API_KEY?: string = undefined;
  @IsString() ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
  @IsString() ANTHROPIC_DEFAULT_MODEL = 'claude-3-5-haiku-latest';

  @IsOptional() @IsString() GEMINI_API_KEY?: string = undefined;
  @IsString() GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';
  @IsString() GEMINI_DEFAULT_MODEL = 'gemini-2.0-flash';

  @IsOptional() @IsString() AZURE_OPENAI_ENDPOINT?: string = undefined;
  @IsOptional() @IsString() AZURE_OPENAI_API_KEY?: string = undefined;
  @IsOptional() @IsString() AZURE_OPENAI_DEPLOYMENT?: string = undefined;
  @IsString() AZURE_OPENAI_API_VERSION = '2024-10-21';

  @IsOptional() @IsString() OLLAMA_BASE_URL?: string = undefined;
  @IsString() OLLAMA_DEFAULT_MODEL = 'llama3.2';

  /** JSON `{ "<model>": [input, output] }`, USD per million tokens, over the built-in table. */
  @IsOptional() @IsString() AI_MODEL_PRICES?: string = undefined;

  /** Timeout of one vendor attempt (connection, request and answer), ms. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  AI_TIMEOUT_MS = 60000;

  /** Retries of a vendor 429, 5xx or timeout before the chat fails with 502. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(10)
  AI_MAX_RETRIES = 2;

  /** First retry delay, ms; doubles on each retry, with jitter, at most 10 s. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  AI_RETRY_BASE_DELAY_MS = 250;

  /** Chats a minute per user, counted in Redis across replicas. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  AI_RATE_LIMIT_PER_USER = 30;

  @Transform(toBool)
  @IsBoolean()
  AI_LOGGING_ENABLED = false;

  /** postgres (a table in the client database) or influxdb (AI_LOG_INFLUX_* of the stores settings). */
  @IsIn(['postgres', 'influxdb'])
  AI_LOG_STORE: 'postgres' | 'influxdb' = 'postgres';

  /**
   * An exchange the log store did not take (or whose worker died before writing it) is tried again,
   * by any worker, once it has waited this long, ms.
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  AI_LOG_RETRY_MS = 10000;

  /** p95 latency is exact up to this many exchanges in range; above, read from a histogram (within 1 %). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  AI_STATS_EXACT_PERCENTILE_LIMIT = 50000;
}
