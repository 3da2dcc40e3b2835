import { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';

const envelopes = new Map<Type<unknown>, Type<unknown>>();
const pages = new Map<Type<unknown>, Type<unknown>>();

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
      @ApiProperty({ example: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 } } })
      meta: { pagination: { page: number; pageSize: number; pageCount: number; total: number } };
    }
    Object.defineProperty(Page, 'name', { value: `${baseName(view)}PageDto` });
    pages.set(view, (page = Page));
  }
  return page;
}

/** Swagger type of `{ data: { count } }`. */
export class CountEnvelopeDto {
  @ApiProperty({ example: { count: 3 } }) data: { count: number };
}
