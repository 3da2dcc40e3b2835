import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { AppConfig, loadConfig } from './app-config';
import { loadSettings } from './load-settings';
import { StoresSettings } from './stores.settings';

/** The environment the settings are read from: process.env, or an override given by a test. */
export const SETTINGS_ENV = Symbol('SETTINGS_ENV');

/** A provider for a module's own settings class, validated like AppConfig. */
export function settingsProvider<T extends object>(Settings: new () => T): Provider {
  return {
    provide: Settings,
    inject: [SETTINGS_ENV],
    useFactory: (env: NodeJS.ProcessEnv) => loadSettings(Settings, env),
  };
}

@Global()
@Module({})
export class ConfigModule {
  static forRoot(env: NodeJS.ProcessEnv = process.env): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: SETTINGS_ENV, useValue: env },
        { provide: AppConfig, inject: [SETTINGS_ENV], useFactory: (e: NodeJS.ProcessEnv) => loadConfig(e) },
        settingsProvider(StoresSettings),
      ],
      exports: [SETTINGS_ENV, AppConfig, StoresSettings],
    };
  }
}
