import { EntityManager } from 'typeorm';
import { Principal } from '../access/principal';
import { AppError, FieldError } from '../common/errors/app-error';
import { relationCompany } from './cms-company-scope';
import { mediaProblems } from './cms-media';
import { checkValue } from '../records/engine/values';
import { ContentTypeCache } from './content-type-cache';
import { CmsMediaRepository } from './cms-media.repository';
import { RecordWriteRepository } from '../records/record-write.repository';

/** The statements the reference checks of a write read through. */
export interface WriteChecks {
  writes: RecordWriteRepository;
  media: CmsMediaRepository;
}
import { CompiledType } from './content-type.types';

/** Checks a body against the definition: unknown fields, types, options, required; defaults fill gaps on create. */
export function recordValues(type: CompiledType, body: unknown, creating: boolean): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw AppError.validation([{ field: 'body', message: 'must be an object of record fields' }]);
  }
  const input = body as Record<string, unknown>;
  const errors: FieldError[] = [];
  const values: Record<string, unknown> = {};
  for (const name of Object.keys(input)) {
    if (!type.fields.has(name)) errors.push({ field: name, message: 'is not a field of this content type' });
  }
  for (const field of type.fields.values()) {
    const given = Object.prototype.hasOwnProperty.call(input, field.name);
    let value = given ? input[field.name] : undefined;
    if (!given && creating && field.def.default !== undefined) value = field.def.default;
    if (value === undefined) {
      if (creating && field.def.required) errors.push({ field: field.name, message: 'is required' });
      continue;
    }
    if (value === null && field.def.required) {
      errors.push({ field: field.name, message: 'is required' });
      continue;
    }
    const checked = checkValue(field.def, value, field.regex);
    if (!checked.ok) errors.push({ field: field.name, message: checked.message });
    else if (Array.isArray(checked.value) && !field.joinTable)
      values[field.name] = JSON.stringify(checked.value);
    else values[field.name] = checked.value;
    if (checked.ok && field.joinTable && field.def.required && (checked.value as unknown[]).length === 0) {
      errors.push({ field: field.name, message: 'is required' });
    }
  }
  if (errors.length) throw AppError.validation(errors);
  return values;
}

/**
 * A relation to a record that does not exist is 400 naming the field, and so is one to a record of
 * another company than the record's (`company`; the caller's scope for a client-scoped record)
 * when the target type is company-scoped, a media id that names no uploaded file of the caller's
 * company (and of the record's) or a file outside the field's `allowedTypes`.
 */
export async function checkReferences(
  repos: WriteChecks,
  types: ContentTypeCache,
  m: EntityManager,
  principal: Principal,
  type: CompiledType,
  values: Record<string, unknown>,
  company: number | null,
) {
  const errors: FieldError[] = [];
  const all = await types.all();
  for (const [name, value] of Object.entries(values)) {
    const field = type.fields.get(name)!;
    if (!field.targetTable || value === null) continue;
    const ids = Array.isArray(value) ? (value as number[]) : [value as number];
    if (!ids.length) continue;
    const target = all.get(field.def.target!);
    const limit = target ? relationCompany(target, company, principal) : null;
    const found = await repos.writes.existing(m, field.targetTable, ids, limit);
    if (found.length !== ids.length)
      errors.push({ field: name, message: `refers to a ${field.def.target} record that does not exist` });
  }
  errors.push(...(await mediaProblems(repos.media, m, principal, type, values, company)));
  if (errors.length) throw AppError.validation(errors);
}
