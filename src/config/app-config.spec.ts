import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('applies defaults', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.MULTITENANCY_DATABASE_ENABLED).toBe(true);
    expect(config.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/svc_master');
  });

  it('converts and validates values', () => {
    const config = loadConfig({ PORT: '8080', MULTITENANCY_DATABASE_ENABLED: 'false', TENANT_POOL_MAX: '3' });
    expect(config).toMatchObject({ PORT: 8080, MULTITENANCY_DATABASE_ENABLED: false, TENANT_POOL_MAX: 3 });
  });

  it('compares the base domain the way request hosts are compared', () => {
    expect(loadConfig({ MULTITENANCY_BASE_DOMAIN: 'Platform.Example.COM.' }).MULTITENANCY_BASE_DOMAIN).toBe(
      'platform.example.com',
    );
  });

  it('bounds migration locks: a lock wait is never unbounded, a statement limit may be off', () => {
    expect(loadConfig({})).toMatchObject({
      MIGRATION_LOCK_TIMEOUT_MS: 2000,
      MIGRATION_LOCK_RETRIES: 5,
      MIGRATION_STATEMENT_TIMEOUT_MS: 60000,
      MIGRATION_IDLE_IN_TRANSACTION_TIMEOUT_MS: 10000,
    });
    expect(loadConfig({ MIGRATION_STATEMENT_TIMEOUT_MS: '0' }).MIGRATION_STATEMENT_TIMEOUT_MS).toBe(0);
    expect(() => loadConfig({ MIGRATION_LOCK_TIMEOUT_MS: '0', MIGRATION_LOCK_RETRIES: '-1' })).toThrow(
      /MIGRATION_LOCK_TIMEOUT_MS[\s\S]*MIGRATION_LOCK_RETRIES/,
    );
  });

  it('names every bad setting', () => {
    expect(() => loadConfig({ PORT: 'eighty', MULTITENANCY_DATABASE_ENABLED: 'maybe' })).toThrow(
      /PORT[\s\S]*MULTITENANCY_DATABASE_ENABLED/,
    );
  });

  it('never echoes a secret value', () => {
    try {
      loadConfig({ JWT_SECRET: 'short-secret' });
      throw new Error('expected a ConfigError');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toContain('JWT_SECRET');
      expect((err as Error).message).not.toContain('short-secret');
    }
  });

  it('requires real secrets in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET: must be set in production/);
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        JWT_SECRET: randomBytes(32).toString('base64'),
        ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      }),
    ).not.toThrow();
  });

  it.each([
    ['JWT_SECRET', 'x'.repeat(40)],
    ['JWT_SECRET', 'dev-only-jwt-secret-change-me-0123456789abcdef'],
    ['ENCRYPTION_KEY', 'a'.repeat(64)],
    ['ENCRYPTION_KEY', '0'.repeat(64)],
    ['ENCRYPTION_KEY', '0123456789abcdef'.repeat(4)],
  ])('refuses a weak %s in production without echoing it', (key, value) => {
    const env = {
      NODE_ENV: 'production',
      JWT_SECRET: randomBytes(32).toString('base64'),
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      [key]: value,
    };
    expect(() => loadConfig(env)).toThrow(new RegExp(`${key}: must`));
    try {
      loadConfig(env);
    } catch (err) {
      expect((err as Error).message).not.toContain(value);
    }
  });
});
