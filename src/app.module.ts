import { BullModule } from '@nestjs/bull';
import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter';
import { AppConfig, loadConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { HealthModule } from './health/health.module';
import { MailModule } from './mail/mail.module';
import { MetricsModule } from './metrics/metrics.module';
import { PlatformModule } from './platform/platform.module';
import { RedisModule } from './redis/redis.module';
import { SandboxesModule } from './sandboxes/sandboxes.module';
import { TenancyModule } from './tenancy/tenancy.module';
import { UnitsModule } from './units/units.module';

@Module({})
export class AppModule {
  /** @param env where settings are read from; tests pass their own. */
  static forRoot(env: NodeJS.ProcessEnv = process.env): DynamicModule {
    const config = loadConfig(env);
    const processors = config.QUEUE_PROCESSORS_ENABLED;
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(env),
        BullModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (c: AppConfig) => ({ redis: c.REDIS_URL, prefix: `${c.REDIS_PREFIX}:bull` }),
        }),
        RedisModule,
        MailModule,
        TenancyModule,
        MetricsModule,
        AuditModule,
        AuthModule,
        PlatformModule.register({ processors }),
        SandboxesModule,
        UnitsModule,
        HealthModule,
      ],
      providers: [{ provide: APP_FILTER, useClass: AllExceptionsFilter }],
    };
  }
}
