import { Global, Module } from '@nestjs/common';
import { settingsProvider } from '../config/config.module';
import { AuditErrorRecorder } from './audit-error-recorder';
import { AuditLog } from './audit-log.entity';
import { AuditLogRepository } from './audit-log.repository';
import { AuditWriter } from './audit-writer';
import { AuditSettings } from './audit.settings';

export const AUDIT_TRAIL_ENTITIES = [AuditLog];

/** The audit writer every module records its changes with, and the recorder of failed requests. */
@Global()
@Module({
  providers: [settingsProvider(AuditSettings), AuditLogRepository, AuditWriter, AuditErrorRecorder],
  exports: [AuditWriter, AuditSettings],
})
export class AuditTrailModule {}
