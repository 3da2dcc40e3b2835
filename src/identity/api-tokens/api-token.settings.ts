import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { toInt } from '../../config/load-settings';

export class ApiTokenSettings {
  /** How long a token lookup is cached per process (a revocation clears it at once on every replica). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(600000)
  API_TOKEN_CACHE_MS = 30000;

  /** How often buffered token uses are written (lastUsedAt and their audit entries). */
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(600000)
  API_TOKEN_FLUSH_MS = 10000;
}
