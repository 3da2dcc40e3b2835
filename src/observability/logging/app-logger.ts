import { Logger } from 'nestjs-pino';

/** Nest's start-up chatter (one line per module and per route): debug level, not info. */
const START_UP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory']);

/**
 * An object logged as a message becomes its JSON text, which the pino options mask like every other
 * message (its fields may hold any secret, under any name).
 */
function masked(message: unknown): unknown {
  if (message === null || typeof message !== 'object' || message instanceof Error) return message;
  try {
    return JSON.stringify(message);
  } catch {
    return '[unserialisable object]';
  }
}

/**
 * nestjs-pino's Nest logger: start-up lines demoted to debug, objects masked like strings (string
 * messages and errors are masked by the pino options, see log-options.ts).
 */
export class AppLogger extends Logger {
  override verbose(message: unknown, ...optionalParams: unknown[]): void {
    super.verbose(masked(message), ...optionalParams);
  }

  override debug(message: unknown, ...optionalParams: unknown[]): void {
    super.debug(masked(message), ...optionalParams);
  }

  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams[optionalParams.length - 1];
    if (typeof context === 'string' && START_UP_CONTEXTS.has(context)) {
      super.debug(masked(message), ...optionalParams);
      return;
    }
    super.log(masked(message), ...optionalParams);
  }

  override warn(message: unknown, ...optionalParams: unknown[]): void {
    super.warn(masked(message), ...optionalParams);
  }

  override error(message: unknown, ...optionalParams: unknown[]): void {
    super.error(masked(message), ...optionalParams);
  }

  override fatal(message: unknown, ...optionalParams: unknown[]): void {
    super.fatal(masked(message), ...optionalParams);
  }
}
