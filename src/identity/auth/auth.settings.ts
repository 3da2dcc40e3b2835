import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsString, Max, MaxLength, Min, ValidateBy } from 'class-validator';
import { toBool, toInt } from '../../config/load-settings';

/** Settings of authentication (read from the environment like AppConfig). */
export class AuthSettings {
  /** Lifetime of password-reset and password-setup codes. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10080)
  PASSWORD_RESET_TTL_MINUTES = 60;

  /**
   * Longest life of a user's cached state (blocked, token version, role, permissions) in a process.
   * Every change of it drops the entry at once on every replica (Redis); this life is only the
   * backstop for a message lost anyway. While the Redis subscriber is down entries live 5 s.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  AUTH_STATE_CACHE_SECONDS = 900;

  /** Users whose state one process keeps (least recently used out first). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  AUTH_STATE_CACHE_MAX = 50000;

  /** Lifetime of refresh tokens. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(365)
  REFRESH_TOKEN_TTL_DAYS = 7;

  /**
   * Lifetime of a self-registration waiting for its e-mail confirmation (and of its link). Past it
   * the registration is dropped; before it, it never counts toward maxUsers.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(720)
  EMAIL_CONFIRMATION_TTL_HOURS = 24;

  /** Self-registration in client databases (never on the master database); false closes it everywhere. */
  @Transform(toBool)
  @IsBoolean()
  AUTH_REGISTRATION_ENABLED = true;

  /** Register, confirmation, forgot- and reset-password requests per window for one client address. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  AUTH_PUBLIC_LIMIT_PER_ADDRESS = 30;

  /** bcrypt hashes (new passwords) running at once; the rest wait, so logins keep threads free. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(16)
  PASSWORD_HASH_CONCURRENCY = 2;

  /** Hashes allowed to wait for a slot; past it the request answers 503 BUSY with Retry-After. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10000)
  PASSWORD_HASH_QUEUE_LIMIT = 50;

  /** Failed logins in a row from one client address that lock the account for that address. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  AUTH_LOCK_THRESHOLD = 5;

  /**
   * Failed logins in a row from any address that lock the whole account (0: no account-wide lock).
   * At least AUTH_LOCK_THRESHOLD, so one address meets its own lock first.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(10000)
  @ValidateBy({
    name: 'notBelowAddressLock',
    validator: {
      validate: (value, args) =>
        value === 0 || (value as number) >= (args!.object as AuthSettings).AUTH_LOCK_THRESHOLD,
      defaultMessage: () => 'AUTH_ACCOUNT_LOCK_THRESHOLD must be 0 (off) or at least AUTH_LOCK_THRESHOLD',
    },
  })
  AUTH_ACCOUNT_LOCK_THRESHOLD = 20;

  /** Days a successful login from an address lets that address pass the account-wide lock (0: never). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(365)
  AUTH_KNOWN_ADDRESS_DAYS = 30;

  /** How long a lock lasts, for one address or the whole account (15 minutes). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(86400)
  AUTH_LOCK_SECONDS = 900;

  /** Login attempts per window for one client address and identifier. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  AUTH_LOGIN_LIMIT_PER_IDENTIFIER = 5;

  /** Login attempts per window for one client address, whatever the identifier. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  AUTH_LOGIN_LIMIT_PER_ADDRESS = 30;

  /** /auth/2fa/authenticate and /auth/2fa/recover attempts per window per address and user. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  AUTH_2FA_LIMIT = 5;

  /** Window of the login, 2FA and public-endpoint rate limits. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  AUTH_RATE_WINDOW_SECONDS = 60;

  /** Reset mails per window for one e-mail; past it forgot-password answers 200 and sends nothing. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  AUTH_FORGOT_PASSWORD_LIMIT = 3;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(86400)
  AUTH_FORGOT_PASSWORD_WINDOW_SECONDS = 3600;

  /** Lifetime of the tempToken of a pending two-factor login. */
  @Transform(toInt)
  @IsInt()
  @Min(30)
  @Max(3600)
  TWO_FACTOR_TEMP_TOKEN_SECONDS = 300;

  /** Wrong codes that end one two-factor challenge. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(20)
  TWO_FACTOR_MAX_ATTEMPTS = 5;

  /** TOTP steps of 30 s accepted either side of now. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(4)
  TWO_FACTOR_WINDOW = 1;

  /** Issuer shown by authenticator apps. */
  @IsString()
  @MaxLength(50)
  TWO_FACTOR_ISSUER = 'SVC Platform';
}
