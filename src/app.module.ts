import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { API_TOKEN_ENTITIES, ApiTokensModule } from './identity/api-tokens/api-tokens.module';
import { AUDIT_ENTITIES, AuditModule } from './audit/audit.module';
import { AUDIT_TRAIL_ENTITIES, AuditTrailModule } from './audit-trail/audit-trail.module';
import { AUTH_ENTITIES, AuthModule } from './identity/auth/auth.module';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter';
import { loadConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { HealthModule } from './health/health.module';
import { MailModule } from './mail/mail.module';
import { MetricsModule } from './observability/metrics/metrics.module';
import { PlatformModule } from './platform/platform.module';
import { BackupsModule } from './backups/backups.module';
import { RedisModule } from './redis/redis.module';
import { RateLimitsModule } from './rate-limits/rate-limits.module';
import { SandboxesModule } from './sandboxes/sandboxes.module';
import { TenancyModule } from './tenancy/tenancy.module';
import { UNIT_ENTITIES, UnitsModule } from './units/units.module';
import { EventsModule } from './events/events.module';
import { FAILURE_ENTITIES, FailuresModule } from './failures/failures.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { WORK_ORDER_ENTITIES, WorkOrdersModule } from './work-orders/work-orders.module';
import { OUTAGE_ENTITIES, OutagesModule } from './outages/outages.module';
import {
  ComplianceModule,
  ENVIRONMENTAL_COMPLIANCE_ENTITIES,
} from './environmental-compliance/compliance.module';
import { USER_ENTITIES, UsersModule } from './identity/users/users.module';
import { SSO_ENTITIES, SsoModule } from './sso/sso.module';
import { LoggingModule } from './observability/logging/logging.module';
import { OperationsModule } from './observability/operations.module';
import { CmsModule } from './cms/cms.module';
import { AiModule } from './ai/ai.module';
import { DOCUMENT_ENTITIES, DocumentsModule } from './documents/documents.module';
import { FILE_ENTITIES, FilesModule } from './files/files.module';

/** Every feature's tenant entities, handed to the tenancy layer (which adds its own). */
const FEATURE_ENTITIES = [
  ...USER_ENTITIES,
  ...AUTH_ENTITIES,
  ...API_TOKEN_ENTITIES,
  ...SSO_ENTITIES,
  ...AUDIT_TRAIL_ENTITIES,
  ...AUDIT_ENTITIES,
  ...UNIT_ENTITIES,
  ...WORK_ORDER_ENTITIES,
  ...FAILURE_ENTITIES,
  ...OUTAGE_ENTITIES,
  ...ENVIRONMENTAL_COMPLIANCE_ENTITIES,
  ...FILE_ENTITIES,
  ...DOCUMENT_ENTITIES,
];

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
        TenancyModule.forRoot(FEATURE_ENTITIES),
        AuditTrailModule,
        MetricsModule,
        // Express tries routes one pattern at a time in registration order, so the operational data
        // routes, which carry most requests, come before authentication, administration and SSO.
        UnitsModule,
        WorkOrdersModule,
        FailuresModule,
        OutagesModule,
        ComplianceModule,
        // Upload hooks run in the order these modules register them at start: cms (a custom table's
        // media link) before documents (OCR intake), as the upload wrote them before the hooks.
        CmsModule,
        FilesModule,
        DocumentsModule.register({ processors }),
        AuditModule,
        AuthModule,
        ApiTokensModule,
        UsersModule,
        PlatformModule.register({ processors }),
        BackupsModule.register({ processors }),
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
