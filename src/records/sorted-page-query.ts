import { Type } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { getMetadataArgsStorage } from 'typeorm';
import { EngineParams, EngineQueryDto } from './engine-query';

export const SORT_ORDERS = ['ASC', 'DESC'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** What a sorted list query hands the list helpers. */
export interface SortedPage extends EngineParams {
  page: number;
  pageSize: number;
  sort: string;
  order: SortOrder;
}

/**
 * Base of a list query: `page` (1-based, default 1), `pageSize` (default 25, at most 100), `sort`
 * one of the allowed fields by JSON name (default `id`; anything else 400) and `order` ASC | DESC
 * (default DESC), and the engine's `filter`, `fields` and `after`. Extend it with the resource's filters; keep them flat, as every query DTO.
 */
export function SortedPageQuery<S extends string>(sorts: readonly S[]) {
  if (!sorts.includes('id' as S)) throw new Error('A sorted page query must allow sorting by id');
  class SortedPageQueryDto extends EngineQueryDto implements SortedPage {
    @ApiPropertyOptional({ enum: sorts, default: 'id' })
    @IsOptional()
    @IsIn(sorts)
    sort: S = 'id' as S;

    @ApiPropertyOptional({ enum: SORT_ORDERS, default: 'DESC' })
    @IsOptional()
    @IsIn(SORT_ORDERS)
    order: SortOrder = 'DESC';
  }
  return SortedPageQueryDto;
}

/**
 * The scalar fields of an entity by property (= JSON) name, for `SortedPageQuery`: every column,
 * without the ones listed in `except` (e.g. long texts nobody sorts by).
 */
export function columnsOf<E>(entity: Type<E>, except: (keyof E & string)[] = []): (keyof E & string)[] {
  const names = getMetadataArgsStorage()
    .filterColumns(entity)
    .map((column) => column.propertyName as keyof E & string);
  return names.filter((name) => !except.includes(name));
}
