import { EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { FieldError } from '../common/errors/app-error';
import { companyScope } from '../access/company-rule';
import { AttributeDefinition, CompiledType } from './content-type.types';
import { CmsMediaRepository } from './cms-media.repository';

/** Whether a file of this MIME type fits a media field's `allowedTypes` (`images` = image/*, `files` = the rest). */
export function fitsAllowedTypes(def: AttributeDefinition, mime: string): boolean {
  const allowed = def.allowedTypes;
  if (!allowed?.length) return true;
  return allowed.includes(mime.startsWith('image/') ? 'images' : 'files');
}

/** What a media field accepts, in words, for its 400. */
export function allowedTypesText(def: AttributeDefinition): string {
  return def.allowedTypes?.includes('images')
    ? 'accepts only images'
    : 'accepts only files that are not images';
}

/**
 * Each media value must name uploaded files the caller may read (its company's; any for SUPER_ADMIN)
 * that fit the field's `allowedTypes`, and for a record of a company-scoped type files of the
 * record's `company`; else 400 naming the field. One query for every id of the body.
 */
export async function mediaProblems(
  files: CmsMediaRepository,
  m: EntityManager,
  principal: Principal,
  type: CompiledType,
  values: Record<string, unknown>,
  company: number | null = null,
): Promise<FieldError[]> {
  const byField = new Map<string, number[]>();
  for (const [name, value] of Object.entries(values)) {
    const field = type.fields.get(name)!;
    if (field.def.type !== 'media' || value === null) continue;
    // Multiple media travel as their JSON text (the jsonb parameter).
    const ids = typeof value === 'string' ? (JSON.parse(value) as number[]) : [value as number];
    if (ids.length) byField.set(name, ids);
  }
  if (!byField.size) return [];
  const readable = companyScope(principal, 'files');
  const rows = await files.filesOf(m, [...new Set([...byField.values()].flat())], readable, company);
  const mimes = new Map(rows.map((r) => [Number(r.id), r.mime]));
  const errors: FieldError[] = [];
  for (const [name, ids] of byField) {
    const def = type.fields.get(name)!.def;
    if (!ids.every((id) => mimes.has(id))) {
      errors.push({ field: name, message: 'refers to an uploaded file of your company that does not exist' });
    } else if (!ids.every((id) => fitsAllowedTypes(def, mimes.get(id)!))) {
      errors.push({ field: name, message: allowedTypesText(def) });
    }
  }
  return errors;
}
