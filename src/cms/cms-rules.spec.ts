import { validateDefinition, compile } from './cms-definition';
import { attributeNameProblem, collectionNameProblem, columnName, joinTableName } from './cms-names';
import { Params } from '../records/engine/params';
import { filterSql } from '../records/engine/filter';
import { checkValue } from '../records/engine/values';

describe('custom table rules', () => {
  it('accepts only safe collection and attribute names', () => {
    expect(collectionNameProblem('turbines')).toBeNull();
    for (const bad of [
      'Turbines',
      '1abc',
      'a-b',
      'a b',
      'x'.repeat(41),
      'select',
      'content_types',
      'a"b',
      'a;drop',
    ]) {
      expect(collectionNameProblem(bad)).not.toBeNull();
    }
    expect(attributeNameProblem('ratedMw')).toBeNull();
    for (const bad of [
      'Rated',
      'id',
      'createdAt',
      'updated_at',
      'publicationStatus',
      'order',
      'a"b',
      `a${'b'.repeat(63)}`,
    ]) {
      expect(attributeNameProblem(bad)).not.toBeNull();
    }
    expect(columnName('ratedMw')).toBe('rated_mw');
    // Every name the pattern allows has a column within 63 characters, the same one every time.
    const long = `a${'B'.repeat(62)}`;
    expect(attributeNameProblem(long)).toBeNull();
    expect(columnName(long)).toHaveLength(63);
    expect(columnName(long)).toBe(columnName(long));
    expect(columnName(long)).not.toBe(columnName(`a${'B'.repeat(61)}C`));
    expect(joinTableName('x'.repeat(40), 'y'.repeat(40)).length).toBeLessThanOrEqual(63);
  });

  it('checks values per type: the column limits as well as the options', () => {
    expect(checkValue({ type: 'integer' }, 2 ** 31, null).ok).toBe(false);
    expect(checkValue({ type: 'integer' }, -(2 ** 31), null).ok).toBe(true);
    expect(checkValue({ type: 'biginteger' }, '9223372036854775808', null).ok).toBe(false);
    expect(checkValue({ type: 'decimal' }, 99999999.99, null)).toEqual({ ok: true, value: '99999999.99' });
    expect(checkValue({ type: 'decimal' }, 1.234, null).ok).toBe(false);
    expect(checkValue({ type: 'date' }, '2024-02-29', null).ok).toBe(true);
    expect(checkValue({ type: 'date' }, '2023-02-29', null).ok).toBe(false);
    expect(checkValue({ type: 'datetime' }, '2024-01-01T10:00:00+02:00', null)).toEqual({
      ok: true,
      value: '2024-01-01T08:00:00.000Z',
    });
    expect(checkValue({ type: 'string', maxLength: 3 }, 'abcd', null).ok).toBe(false);
    expect(checkValue({ type: 'relation', relation: 'manyToMany', target: 'x' }, [1, 1, 2], null)).toEqual({
      ok: true,
      value: [1, 2],
    });
  });

  it('builds search conditions with every value as a parameter', () => {
    const type = compile(
      validateDefinition(
        { collectionName: 'things', attributes: { name: { type: 'string' }, size: { type: 'integer' } } },
        new Set(),
      ),
    );
    const scope = {
      type,
      types: new Map([['things', type]]),
      assertReadable: () => undefined,
      targetVisibility: () => null,
    };
    const params = new Params();
    const where = filterSql(scope, { name: { $contains: "50%'; --" }, size: { $in: [1, 2] } }, params);
    expect(where).toBe(`(t."name" ILIKE $1 AND t."size" = ANY($2::integer[]))`);
    expect(params.values).toEqual(["%50\\%'; --%", [1, 2]]);
    const nested = new Params();
    expect(filterSql(scope, { $or: [{ size: 1 }, { $not: { name: { $startsWith: 'a_' } } }] }, nested)).toBe(
      `(t."size" = $1::integer OR (t."name" LIKE $2) IS NOT TRUE)`,
    );
    expect(nested.values).toEqual([1, 'a\\_%']);
    expect(() => filterSql(scope, { 'name"': 1 }, new Params())).toThrow();
    expect(() => filterSql(scope, { size: { $where: 1 } }, new Params())).toThrow();
    expect(() => filterSql(scope, { $xor: [] }, new Params())).toThrow();
  });
});
