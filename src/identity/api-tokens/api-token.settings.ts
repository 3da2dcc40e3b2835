import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { toInt } from '../../config/load-settings';

export class ApiTokenSettings {
  /**
   * Longest life of a token lookup in a process: a revocation clears it at once on every replica,
   * so this is only the backstop for a message lost anyway (5 s while the Redis subscriber is down).
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(600000)
  API_TOKEN_CACHE_MS = 600000;

  /** How often buffered token uses are written (lastUsedAt and their audit entries). */
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(600000)
  API_TOKEN_FLUSH_MS = 10000;
}
