import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ApiTokensModule } from './api-tokens/api-tokens.module';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter';
import { loadConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { HealthModule } from './health/health.module';
import { MailModule } from './mail/mail.module';
import { MetricsModule } from './metrics/metrics.module';
import { PlatformModule } from './platform/platform.module';
import { RedisModule } from './redis/redis.module';
import { RateLimitsModule } from './rate-limits/rate-limits.module';
import { SandboxesModule } from './sandboxes/sandboxes.module';
import { TenancyModule } from './tenancy/tenancy.module';
import { UnitsModule } from './units/units.module';
import { EventsModule } from './events/events.module';
import { FailuresModule } from './failures/failures.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { WorkOrdersModule } from './work-orders/work-orders.module';
import { OutagesModule } from './outages/outages.module';
import { ComplianceModule } from './compliance/compliance.module';
import { UsersModule } from './users/users.module';
import { SsoModule } from './sso/sso.module';
import { LoggingModule } from './operations/logging/logging.module';
import { OperationsModule } from './operations/operations.module';
import { CmsModule } from './cms/cms.module';
import { AiModule } from './ai/ai.module';
import { DocumentsModule } from './documents/documents.module';

@Module({})
export class AppModule {
  /** @param env where settings are read from; tests pass their own. */
  static forRoot(env: NodeJS.ProcessEnv = process.env): DynamicModule {
    const config = loadConfig(env);
    const processors = config.QUEUE_PROCESSORS_ENABLED;
    return {
      module: AppModule,
      imports: [
        LoggingModule.forRoot(env),
        ConfigModule.forRoot(env),
        OperationsModule,
        RedisModule,
        RateLimitsModule,
        MailModule,
        TenancyModule,
        MetricsModule,
        // Express tries routes one pattern at a time in registration order, so the operational data
        // routes, which carry most requests, come before authentication, administration and SSO.
        UnitsModule,
        WorkOrdersModule,
        FailuresModule,
        OutagesModule,
        ComplianceModule,
        CmsModule,
        DocumentsModule.register({ processors }),
        AuditModule,
        AuthModule,
        ApiTokensModule,
        UsersModule,
        PlatformModule.register({ processors }),
        SandboxesModule,
        EventsModule.register({ processors }),
        WebhooksModule.register({ processors }),
        SsoModule,
        AiModule.register({ processors }),
        HealthModule,
      ],
      providers: [{ provide: APP_FILTER, useClass: AllExceptionsFilter }],
    };
  }
}
