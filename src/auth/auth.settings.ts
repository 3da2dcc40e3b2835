import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { toInt } from '../config/load-settings';

/** Settings of authentication (read from the environment like AppConfig). */
export class AuthSettings {
  /** Lifetime of password-reset and password-setup codes. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10080)
  PASSWORD_RESET_TTL_MINUTES = 60;
}
