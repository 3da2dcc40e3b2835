import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { toInt } from '../config/load-settings';

/** How the process logs, shuts down and exports traces. */
export class OperationsSettings {
  /** `json` (one JSON object a line) or `pretty` (coloured text); empty: pretty only in development. */
  @IsOptional()
  @IsIn(['json', 'pretty'])
  LOG_FORMAT?: 'json' | 'pretty' = undefined;

  /** Longest wait, after SIGTERM, for requests in flight (API) or the running jobs (worker). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3600)
  SHUTDOWN_GRACE_SECONDS = 25;

  /** OTLP/HTTP collector base URL; empty: tracing is off and costs nothing. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'must be an http(s) URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string = undefined;

  /** Service name on exported spans. */
  @IsString()
  OTEL_SERVICE_NAME = 'svc-platform';
}
