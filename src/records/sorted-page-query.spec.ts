import 'reflect-metadata';
import { ArgumentMetadata } from '@nestjs/common';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { AppError } from '../common/errors/app-error';
import { createValidationPipe } from '../common/validation/validation.pipe';
import { columnsOf, SortedPageQuery } from './sorted-page-query';

@Entity('gauges')
class Gauge {
  @PrimaryGeneratedColumn() id: number;
  @Column() title: string;
  @Column({ type: 'numeric' }) lostCapacityMw: number;
  @Column({ type: 'text' }) notes: string;
}

class GaugeQueryDto extends SortedPageQuery(columnsOf(Gauge, ['notes'])) {}

const asQuery: ArgumentMetadata = { type: 'query', metatype: GaugeQueryDto };

async function rejection(query: Record<string, string>) {
  const error = await createValidationPipe()
    .transform(query, asQuery)
    .then(
      () => null,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).details as { field: string }[];
}

describe('SortedPageQuery', () => {
  it('defaults to page 1 of 25, by id, newest first', async () => {
    const q = (await createValidationPipe().transform({}, asQuery)) as GaugeQueryDto;
    expect(q).toMatchObject({ page: 1, pageSize: 25, sort: 'id', order: 'DESC' });
  });

  it('takes an allowed field by its JSON name and either order', async () => {
    const q = await createValidationPipe().transform(
      { sort: 'lostCapacityMw', order: 'ASC', page: '3', pageSize: '100' },
      asQuery,
    );
    expect(q).toMatchObject({ sort: 'lostCapacityMw', order: 'ASC', page: 3, pageSize: 100 });
  });

  it.each([
    [{ sort: 'notes' }, 'sort'],
    [{ sort: 'lost_capacity_mw' }, 'sort'],
    [{ sort: 'id; DROP TABLE gauges' }, 'sort'],
    [{ order: 'asc' }, 'order'],
    [{ pageSize: '101' }, 'pageSize'],
    [{ page: '0' }, 'page'],
  ])('answers 400 naming the field for %j', async (query, field) => {
    expect((await rejection(query)).map((d) => d.field)).toContain(field);
  });

  it('lists every column of an entity but the excluded ones', () => {
    expect(columnsOf(Gauge, ['notes'])).toEqual(['id', 'title', 'lostCapacityMw']);
  });

  it('refuses an allow-list without id, the default sort', () => {
    expect(() => SortedPageQuery(['title'])).toThrow(/id/);
  });
});
