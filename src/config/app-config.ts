import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
} from 'class-validator';
import { ConfigError, loadSettings, toBool, toInt } from './load-settings';
import { productionSecretProblems } from './production-secrets';
import { IsRedisUrl } from './redis-url';

export { ConfigError };

/**
 * Every setting of the service. Each property is read from the environment variable of the same
 * name; `.env.example` lists them with their defaults and meaning. `sensitive` ones are never logged.
 */
export class AppConfig {
  @IsIn(['development', 'test', 'production'])
  NODE_ENV: 'development' | 'test' | 'production' = 'development';

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  /** Port of `npm run start:worker`, which answers only its health and metrics probes there. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  WORKER_PORT = 3001;

  @Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// URL' })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/svc_master';

  /**
   * The master database reached without a transaction pooler, for what needs a session of its own:
   * migrations, CREATE DATABASE, session advisory locks. Unset: DATABASE_URL is direct.
   */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// URL' })
  DATABASE_DIRECT_URL?: string = undefined;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_MAX = 10;

  /** One server (`redis://`, `rediss://`) or a Sentinel group (`redis+sentinel://`); see redis-url.ts. */
  @IsRedisUrl()
  REDIS_URL = 'redis://127.0.0.1:6379';

  /** Prefix of every Redis key and Bull queue, so several deployments (or test runs) share one Redis. */
  @IsString()
  @Matches(/^[a-z0-9_:-]+$/i)
  REDIS_PREFIX = 'svc';

  @IsString()
  @MinLength(32, { message: 'must be at least 32 characters' })
  JWT_SECRET = 'dev-only-jwt-secret-change-me-0123456789abcdef';

  @Matches(/^([0-9a-f]{64}|[A-Za-z0-9+/]{43}=)$/, {
    message: 'must be 32 bytes as 64 hex characters or base64',
  })
  ENCRYPTION_KEY = '0000000000000000000000000000000000000000000000000000000000000000';

  @Transform(toInt)
  @IsInt()
  @Min(60)
  JWT_EXPIRES_IN_SECONDS = 86400;

  @Transform(toBool)
  @IsBoolean()
  MULTITENANCY_DATABASE_ENABLED = true;

  /** Lower-cased without a trailing dot, the way request hosts are compared with it. */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim().toLowerCase().replace(/\.+$/, '') || undefined : value,
  )
  @IsString()
  MULTITENANCY_BASE_DOMAIN?: string = undefined;

  @IsString()
  MULTITENANCY_DB_HOST = 'localhost';

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(65535)
  MULTITENANCY_DB_PORT = 5432;

  /**
   * A transaction pooler (PgBouncer) in front of MULTITENANCY_DB_HOST:PORT: at start it becomes that
   * server's pooler in the registry when the registry names none (a pooler set through the API wins).
   * Client-database pools of that server connect there; administrative work still goes to the server
   * itself. Unset: the registry decides alone.
   */
  @IsOptional()
  @IsString()
  MULTITENANCY_DB_POOLER_HOST?: string = undefined;

  /** Port of MULTITENANCY_DB_POOLER_HOST (PgBouncer's default 6432). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(65535)
  MULTITENANCY_DB_POOLER_PORT = 6432;

  /** Prefix of client database and login-role names: a client `acme` lives in `svc_acme`. */
  @Matches(/^[a-z][a-z0-9_]{0,20}$/, { message: 'must be a lowercase identifier prefix' })
  MULTITENANCY_DB_PREFIX = 'svc_';

  @Transform(toBool)
  @IsBoolean()
  MULTITENANCY_DATABASE_AUTO_MIGRATE = true;

  /**
   * Longest wait of a migration statement for a lock: a migration that needs an exclusive lock queues
   * every request on its table behind it, so it gives up (and is retried) rather than wait longer.
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600_000)
  MIGRATION_LOCK_TIMEOUT_MS = 2000;

  /** Retries of a migration that timed out on a lock, its transaction rolled back each time. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(20)
  MIGRATION_LOCK_RETRIES = 5;

  /** Longest run of one migration statement; 0: no limit. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(24 * 3600 * 1000)
  MIGRATION_STATEMENT_TIMEOUT_MS = 60_000;

  /** A migration session idle this long inside its transaction is ended by the server; 0: no limit. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3600 * 1000)
  MIGRATION_IDLE_IN_TRANSACTION_TIMEOUT_MS = 10_000;

  /** Rows one batch of a background data migration changes at most, in its own short transaction. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  BACKGROUND_MIGRATION_BATCH_SIZE = 1000;

  /** Pause between two batches of a background data migration, leaving the database to the clients' traffic. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60_000)
  BACKGROUND_MIGRATION_PAUSE_MS = 100;

  /** Most connections one client database may hold in this process. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  TENANT_POOL_MAX = 5;

  /** Most client-database connections this process holds, all clients together; idle ones close (LRU) to make room. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10000)
  TENANT_CONNECTION_CEILING = 60;

  /**
   * Processes (API and worker replicas) that connect to the same database servers: each takes an
   * equal share of a server's registered maxConnections as its budget of connections to that server.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10000)
  TENANT_SERVER_PROCESSES = 1;

  /** A client-database connection idle this long is closed. */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  TENANT_POOL_IDLE_MS = 900000;

  /** Most units of work waiting for one client's connections; past it they answer 503 with Retry-After. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  TENANT_POOL_QUEUE_MAX = 100;

  /** Fallback refresh of the client and database-server registry caches (changes are pushed over Redis at once). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  CLIENT_CACHE_REFRESH_MS = 5000;

  @IsOptional()
  @IsEmail()
  BOOTSTRAP_ADMIN_EMAIL?: string = 'admin@example.com';

  @IsOptional()
  @IsString()
  @MinLength(8)
  BOOTSTRAP_ADMIN_PASSWORD?: string = undefined;

  @IsOptional()
  @Matches(/^smtps?:\/\//, { message: 'must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string = undefined;

  @IsString()
  MAIL_FROM = 'Platform <no-reply@localhost>';

  /** Public address used in e-mailed links when the client has no domain of its own. */
  @Matches(/^https?:\/\//, { message: 'must be an http(s) URL' })
  PUBLIC_APP_URL = 'http://localhost:3000';

  /** Number of reverse-proxy hops in front of the service whose X-Forwarded-For is trusted. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(10)
  TRUST_PROXY_HOPS = 0;

  @IsOptional()
  @IsString()
  @MinLength(16)
  METRICS_TOKEN?: string = undefined;

  @Transform(toBool)
  @IsBoolean()
  SWAGGER_ENABLED = true;

  @IsIn(['error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL: 'error' | 'warn' | 'log' | 'debug' | 'verbose' = 'log';

  @Transform(toInt)
  @IsInt()
  @Min(4)
  @Max(15)
  BCRYPT_ROUNDS = 10;

  /** Largest JSON request body, in bytes, of every route but /auth/* (uploads have their own limits). */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(10 * 1024 * 1024)
  BODY_LIMIT_BYTES = 256 * 1024;

  /** Largest JSON request body of /auth/*, in bytes: those routes are open to anyone. */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(1024 * 1024)
  AUTH_BODY_LIMIT_BYTES = 16 * 1024;

  /** Deepest nesting of arrays and objects a JSON body may have; deeper bodies are refused unparsed. */
  @Transform(toInt)
  @IsInt()
  @Min(2)
  @Max(256)
  BODY_MAX_DEPTH = 32;

  /** Set false in a process that should only serve HTTP (Bull processors then run in workers). */
  @Transform(toBool)
  @IsBoolean()
  QUEUE_PROCESSORS_ENABLED = true;
}

export const SENSITIVE_SETTINGS = new Set<string>([
  'JWT_SECRET',
  'ENCRYPTION_KEY',
  'BOOTSTRAP_ADMIN_PASSWORD',
  'METRICS_TOKEN',
  'SMTP_URL',
]);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const config = loadSettings(AppConfig, env);
  if (config.NODE_ENV === 'production') {
    const problems = productionSecretProblems(config, env);
    if (problems.length) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return config;
}
