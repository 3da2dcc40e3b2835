import { Injectable } from '@nestjs/common';
import { AuditWriter, diffChanges } from '../audit-trail/audit-writer';
import { AppError } from '../common/errors/app-error';
import { StoresSettings } from '../config/stores.settings';
import { TenantDatabase } from '../tenancy/tenant-database';
import { OCR_LANGUAGE_CODES, OcrLanguage, SUPPORTED_FILE_TYPES } from './ocr/languages';
import { OcrCompanyConfig, OcrConfigChanges, OcrConfigRepository } from './ocr-config.repository';

export type { OcrCompanyConfig };

/** The OCR settings each company keeps beside its record (production schema, as companies). */
@Injectable()
export class OcrConfigStore {
  constructor(
    private readonly db: TenantDatabase,
    private readonly stores: StoresSettings,
    private readonly audit: AuditWriter,
    private readonly configs: OcrConfigRepository,
  ) {}

  async get(companyId: number): Promise<OcrCompanyConfig> {
    const row = await this.configs.get(companyId);
    if (!row) throw AppError.notFound('Company');
    return row;
  }

  async update(companyId: number, changes: OcrConfigChanges) {
    const before = await this.get(companyId);
    if (!Object.values(changes).some((v) => v !== undefined)) return before;
    await this.db.production((production) =>
      production.transaction(async (m) => {
        await this.configs.update(m, companyId, changes);
        const after = {
          ...before,
          ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)),
        };
        const diff = diffChanges(before, after);
        if (Object.keys(diff).length) {
          await this.audit.record(m, {
            action: 'UPDATE',
            entityType: 'Company',
            entityId: companyId,
            companyId,
            message: 'OCR configuration changed',
            changes: diff,
          });
        }
      }),
    );
    return this.get(companyId);
  }

  /** OCR_LANGUAGE when it is one of the supported codes, else `en`. */
  get defaultLanguage(): string {
    return OCR_LANGUAGE_CODES.includes(this.stores.OCR_LANGUAGE as OcrLanguage)
      ? this.stores.OCR_LANGUAGE
      : 'en';
  }

  /** OCR runs for a company when it is on globally and for the company. */
  enabledFor(config: OcrCompanyConfig): boolean {
    return this.stores.OCR_ENABLED && config.ocrEnabled;
  }

  /** Extensions (no dot) the company has OCR read, limited to the supported ones. */
  fileTypes(config: OcrCompanyConfig): string[] {
    return config.ocrFileTypes
      .split(',')
      .map((t) => t.trim().toLowerCase().replace(/^\./, ''))
      .filter((t) => SUPPORTED_FILE_TYPES.includes(t));
  }

  view(config: OcrCompanyConfig) {
    return { ...config, supportedFileTypes: SUPPORTED_FILE_TYPES.map((t) => t.toUpperCase()) };
  }
}
