import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

export class ConfigError extends Error {}

const SECRET_NAME = /SECRET|KEY|PASSWORD|TOKEN|SMTP_URL|DATABASE_(DIRECT_)?URL|REDIS_URL/;

/**
 * Reads a settings class from the environment: each property (declared with a default, `undefined`
 * for optional ones) is taken from the variable of the same name and validated by its decorators.
 * Throws a ConfigError naming every bad setting, so a bad value stops the start.
 */
export function loadSettings<T extends object>(
  Settings: new () => T,
  env: NodeJS.ProcessEnv = process.env,
): T {
  const defaults = new Settings() as Record<string, unknown>;
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(defaults)) {
    const value = env[key];
    raw[key] = value === undefined || value === '' ? defaults[key] : value;
  }
  const settings = plainToInstance(Settings, raw);
  const problems = validateSync(settings).map(
    (e) =>
      `${e.property}: ${Object.values(e.constraints ?? {}).join(', ')}` +
      (SECRET_NAME.test(e.property) ? '' : ` (got ${JSON.stringify(raw[e.property])})`),
  );
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return settings;
}

export const toBool = ({ value }: { value: unknown }) => {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return value;
};

export const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;

export const toIntList = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.split(',').map((part) => Number(part.trim())) : value;
