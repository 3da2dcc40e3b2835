import { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { PageMetaDto } from '../common/pagination/pagination.dto';

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
