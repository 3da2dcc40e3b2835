import { DynamicModule, Global, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { loadConfig } from '../../config/app-config';
import { loadSettings } from '../../config/load-settings';
import { OperationsSettings } from '../operations.settings';
import { AppLogger } from './app-logger';
import { loggerParams } from './log-options';

/** Chooses the log format: LOG_FORMAT, else pretty text in development and JSON lines elsewhere. */
export function logFormat(env: NodeJS.ProcessEnv): 'json' | 'pretty' {
  const format = loadSettings(OperationsSettings, env).LOG_FORMAT;
  return format ?? (loadConfig(env).NODE_ENV === 'development' ? 'pretty' : 'json');
}

/** pino for the whole application (nestjs-pino), and the Nest logger the app uses (AppLogger). */
@Global()
@Module({})
export class LoggingModule {
  static forRoot(env: NodeJS.ProcessEnv): DynamicModule {
    const params = loggerParams(loadConfig(env).LOG_LEVEL, logFormat(env));
    const pino = LoggerModule.forRoot(params);
    return {
      module: LoggingModule,
      imports: [pino],
      providers: [AppLogger],
      exports: [AppLogger, pino],
    };
  }
}
