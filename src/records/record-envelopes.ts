import { Type } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiProperty,
  ApiPropertyOptional,
  getSchemaPath,
  PartialType,
} from '@nestjs/swagger';
import { PageMetaDto } from '../common/pagination/pagination.dto';

const envelopes = new Map<Type<unknown>, Type<unknown>>();
const pages = new Map<Type<unknown>, Type<unknown>>();
const lists = new Map<string, Type<unknown>>();

const baseName = (view: Type<unknown>) => view.name.replace(/Dto$/, '');

/** Swagger type of `{ data: record }` for a record's view DTO (`WorkOrderDto` → `WorkOrderEnvelopeDto`). */
export function EnvelopeOf(view: Type<unknown>): Type<unknown> {
  let envelope = envelopes.get(view);
  if (!envelope) {
    class Envelope {
      @ApiProperty({ type: view }) data: unknown;
    }
    Object.defineProperty(Envelope, 'name', { value: `${baseName(view)}EnvelopeDto` });
    envelopes.set(view, (envelope = Envelope));
  }
  return envelope;
}

/** Swagger type of the list envelope for a record's view DTO (`WorkOrderDto` → `WorkOrderPageDto`). */
export function PageOf(view: Type<unknown>): Type<unknown> {
  let page = pages.get(view);
  if (!page) {
    class Page {
      @ApiProperty({ type: [view] }) data: unknown[];
      @ApiProperty({ type: PageMetaDto }) meta: PageMetaDto;
    }
    Object.defineProperty(Page, 'name', { value: `${baseName(view)}PageDto` });
    pages.set(view, (page = Page));
  }
  return page;
}

export class CountDto {
  @ApiProperty({ type: 'integer', minimum: 0, example: 3 }) count: number;
}

/** Swagger type of `{ data: { count } }`. */
export class CountEnvelopeDto {
  @ApiProperty({ type: CountDto }) data: CountDto;
}

/** A record narrowed by `fields=`: the view's fields, each optional (id is always there). */
function narrowedView(view: Type<unknown>): Type<unknown> {
  class Narrowed extends PartialType(view) {}
  Object.defineProperty(Narrowed, 'name', { value: `${baseName(view)}FieldsDto` });
  return Narrowed;
}

/** `meta.pagination` of a list on the record engine: the page, and the next cursor when the query used the engine's parameters. */
export class EnginePaginationDto {
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    nullable: true,
    example: 1,
    description: '1-based page number; null on a page read by cursor',
  })
  page: number | null;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100, example: 25 }) pageSize: number;
  @ApiProperty({ type: 'integer', minimum: 0, example: 1 }) pageCount: number;
  @ApiProperty({ type: 'integer', minimum: 0, example: 1, description: 'Matches across all pages' })
  total: number;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description:
      'Cursor of the next page (`after=`), null on the last page; present when the query gave filter, fields or after',
  })
  nextCursor?: string | null;
}

export class EnginePageMetaDto {
  @ApiProperty({ type: EnginePaginationDto }) pagination: EnginePaginationDto;
}

/**
 * Swagger type of a records list on the engine (`WorkOrderDto` → `WorkOrderPageDto`; a view has one page type: every list of a resource on the engine uses this one): its items the
 * view or, when `narrowable`, a record narrowed by `fields=`; its meta with the next cursor.
 */
export function ListPageOf(view: Type<unknown>, narrowable = true): Type<unknown> {
  const key = `${view.name}:${narrowable}`;
  let page = lists.get(key);
  if (!page) {
    const narrowed = narrowable ? narrowedView(view) : view;
    @ApiExtraModels(view, narrowed)
    class Page {
      @ApiProperty({
        type: 'array',
        items: narrowable
          ? { anyOf: [{ $ref: getSchemaPath(view) }, { $ref: getSchemaPath(narrowed) }] }
          : { $ref: getSchemaPath(view) },
        description: narrowable
          ? 'The records; with `fields=` only the fields named (and id)'
          : 'The records',
      })
      data: unknown[];
      @ApiProperty({ type: EnginePageMetaDto }) meta: EnginePageMetaDto;
    }
    Object.defineProperty(Page, 'name', { value: `${baseName(view)}PageDto` });
    lists.set(key, (page = Page));
  }
  return page;
}
