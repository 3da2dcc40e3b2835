import { ApiProperty } from '@nestjs/swagger';

/** `meta.pagination` of a 1-based list (docs/api-rules.md, Paging). */
export class PaginationDto {
  @ApiProperty({ type: 'integer', minimum: 1, example: 1, description: '1-based page number' })
  page: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100, example: 25 })
  pageSize: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 1 })
  pageCount: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 1, description: 'Matches across all pages' })
  total: number;
}

/** `meta` of a list: `{ pagination }`. */
export class PageMetaDto {
  @ApiProperty({ type: PaginationDto }) pagination: PaginationDto;
}
