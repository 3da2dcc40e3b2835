import { AppError } from '../../common/errors/app-error';
import { RecordType } from './record-type';
import { queryableField } from './select';

/**
 * `fields=a,b`: the names a list or search answers, `id` always among them; undefined answers every
 * field. An unknown or private name is 400 on `fields`.
 */
export function chosenFields(type: RecordType, fields: string | undefined): Set<string> | undefined {
  if (fields === undefined) return undefined;
  const names = fields.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !queryableField(type, name));
  if (unknown.length) {
    throw AppError.validation([
      {
        field: 'fields',
        message: `${unknown.map((n) => `"${n}"`).join(', ')}: not fields of this type`,
      },
    ]);
  }
  return new Set(['id', ...names]);
}
