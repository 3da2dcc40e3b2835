import { ConsoleLogger, LogLevel } from '@nestjs/common';
import { redactText } from './redact';

/**
 * The logger of the API and the worker: Nest's console logger with every message and stack trace
 * passed through `redactText`, so no line carries a password, hash, token, key or custom header value.
 */
export class RedactingLogger extends ConsoleLogger {
  protected override stringifyMessage(message: unknown, logLevel: LogLevel): string {
    return redactText(String(super.stringifyMessage(message, logLevel)));
  }

  protected override printStackTrace(stack: string | undefined): void {
    super.printStackTrace(typeof stack === 'string' ? redactText(stack) : (stack as unknown as string));
  }
}
