import { EntityManager } from 'typeorm';
import { AppError } from '../common/errors/app-error';
import { Params } from '../records/engine/params';
import { toRecord } from '../records/engine/select';
import { RecordQueryRepository } from '../records/record-query.repository';
import { isCompanyScoped } from './cms-company-scope';
import { ContentTypeCache } from './content-type-cache';
import { CompiledType, ContentRecord } from './content-type.types';

export type Row = Record<string, unknown>;

/**
 * undefined_column, undefined_table, and not_null_violation (only `company_id` is NOT NULL without
 * a default): the cached definition is older than the table.
 */
const STALE_DEFINITION = new Set(['42703', '42P01', '23502']);

/**
 * Runs `work` with the type's compiled definition. When the table no longer matches it (another
 * replica changed the type and its invalidation is still on the way), the local entry is dropped
 * and the work runs once more with the definition read afresh.
 */
export async function withFreshType<T>(
  types: ContentTypeCache,
  collection: string,
  work: (type: CompiledType) => Promise<T>,
): Promise<T> {
  try {
    return await work(await types.get(collection));
  } catch (err) {
    if (!STALE_DEFINITION.has((err as { code?: string }).code ?? '')) throw err;
    types.forget();
    return work(await types.get(collection));
  }
}

/**
 * One record, within the company `limit` (null: any), read in the write transaction `m` when given
 * (locked when `lock`); 404 when there is none.
 */
export async function readRecord(
  records: RecordQueryRepository,
  type: CompiledType,
  id: number,
  limit: number | null,
  m?: EntityManager,
  lock = false,
): Promise<ContentRecord> {
  const row = await records.one(type, id, limit, m, lock);
  if (!row) throw AppError.notFound('Record');
  return toRecord(type, row);
}

/** The company limit of a company-scoped type's record reached through `company` (null: a client-scoped type). */
export const scopedTo = (type: CompiledType, company: number) => (isCompanyScoped(type) ? company : null);

export function statusCondition(
  type: CompiledType,
  status: 'draft' | 'published' | undefined,
  params: Params,
): string[] {
  if (!status || !type.draftAndPublish) return [];
  return [`t."publication_status" = ${params.add(status === 'draft' ? 'DRAFT' : 'PUBLISHED')}`];
}
