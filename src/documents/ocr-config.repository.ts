import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlExample } from '../database/sql-example';
import { TenantDatabase } from '../tenancy/tenant-database';

/** The OCR settings a company keeps beside its record. */
export interface OcrCompanyConfig {
  companyId: number;
  companyName: string;
  ocrEnabled: boolean;
  ocrLanguage: string;
  ocrAutoProcess: boolean;
  ocrFileTypes: string;
}

export type OcrConfigChanges = Partial<Omit<OcrCompanyConfig, 'companyId' | 'companyName'>>;

const COLUMNS: Record<keyof OcrConfigChanges, string> = {
  ocrEnabled: 'ocr_enabled',
  ocrLanguage: 'ocr_language',
  ocrAutoProcess: 'ocr_auto_process',
  ocrFileTypes: 'ocr_file_types',
};

const SELECT = `SELECT id AS "companyId", name AS "companyName", ocr_enabled AS "ocrEnabled",
  ocr_language AS "ocrLanguage", ocr_auto_process AS "ocrAutoProcess", ocr_file_types AS "ocrFileTypes"
  FROM public.companies WHERE id = $1`;

/** The OCR columns of `public.companies` (production schema, as companies). */
@Injectable()
export class OcrConfigRepository {
  constructor(private readonly db: TenantDatabase) {}

  @SqlExample([2])
  async get(companyId: number): Promise<OcrCompanyConfig | undefined> {
    const [row] = await this.db.production((m) => m.query<OcrCompanyConfig[]>(SELECT, [companyId]));
    return row;
  }

  /** Sets the given settings (at least one) in the caller's transaction. */
  @SqlExample((c) => [c.manager, 2, { ocrEnabled: true, ocrLanguage: 'fr' }])
  async update(tx: EntityManager, companyId: number, changes: OcrConfigChanges): Promise<void> {
    const sets: string[] = [];
    const params: unknown[] = [companyId];
    for (const [field, column] of Object.entries(COLUMNS)) {
      const value = changes[field as keyof OcrConfigChanges];
      if (value === undefined) continue;
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    }
    await tx.query(
      `UPDATE public.companies SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`,
      params,
    );
  }
}
