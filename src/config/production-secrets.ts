import type { AppConfig } from './app-config';

/** The development values `.env.example` documents; anyone can sign or decrypt with them. */
export const DEVELOPMENT_SECRETS: Readonly<Record<'JWT_SECRET' | 'ENCRYPTION_KEY', string>> = {
  JWT_SECRET: 'dev-only-jwt-secret-change-me-0123456789abcdef',
  ENCRYPTION_KEY: '0'.repeat(64),
};

/** Fewest distinct bytes a JWT_SECRET may have (a passphrase of 32 characters has far more). */
const MIN_DISTINCT_SECRET_BYTES = 8;
/** 32 random bytes repeat a value a few times at most; fewer than 16 distinct ones is not random. */
const MIN_DISTINCT_KEY_BYTES = 16;

const distinctBytes = (bytes: Buffer) => new Set(bytes).size;

export function encryptionKeyBytes(value: string): Buffer {
  return /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
}

/**
 * What production refuses in the secrets: missing ones, the documented development values and
 * low-entropy ones. Every problem names the setting and never its value.
 */
export function productionSecretProblems(config: AppConfig, env: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  for (const key of ['JWT_SECRET', 'ENCRYPTION_KEY'] as const) {
    if (!env[key]) problems.push(`${key}: must be set in production`);
    else if (config[key].toLowerCase() === DEVELOPMENT_SECRETS[key])
      problems.push(`${key}: must not be the documented development value in production`);
  }
  if (problems.length) return problems;
  const secret = Buffer.from(config.JWT_SECRET, 'utf8');
  if (secret.length < 32 || distinctBytes(secret) < MIN_DISTINCT_SECRET_BYTES) {
    problems.push('JWT_SECRET: must be at least 32 bytes of random data in production (low entropy)');
  }
  const key = encryptionKeyBytes(config.ENCRYPTION_KEY);
  if (key.length !== 32 || distinctBytes(key) < MIN_DISTINCT_KEY_BYTES) {
    problems.push('ENCRYPTION_KEY: must be 32 random bytes in production (low entropy)');
  }
  return problems;
}
