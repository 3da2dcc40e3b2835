import { ApiProperty } from '@nestjs/swagger';
import { DOCUMENT_STATUSES, DocumentStatus } from '../entities/document-content.entity';
import { DocumentFieldsDto } from './document-analysis.dto';

/** A search match: the list item with its status named `processingStatus`, its rank and highlights. */
export class DocumentSearchHitDto extends DocumentFieldsDto {
  @ApiProperty({ enum: DOCUMENT_STATUSES, example: 'COMPLETED' }) processingStatus: DocumentStatus;
  @ApiProperty({
    example: 0.8125,
    description:
      "The match's rank, 0 to 1: the levels (1 to 16, from each word's frequency for the document's length) of the query's words it holds, as a share of the highest they could reach",
  })
  rank: number;
  @ApiProperty({
    example: 'the <mark>transformer</mark> was inspected … oil level of the <mark>transformer</mark>',
    description: 'Up to two fragments with the matched words in <mark></mark>, joined by " … "',
  })
  highlight: string;
}

/** A page of search matches, best first. */
export class DocumentSearchPageDto {
  @ApiProperty({ type: [DocumentSearchHitDto] }) content: DocumentSearchHitDto[];
  @ApiProperty({
    type: 'integer',
    example: 12,
    description:
      "Matches: exact when totalExact; otherwise the planner's estimate (above SEARCH_EXACT_TOTAL), at least the count reached",
  })
  totalElements: number;
  @ApiProperty({ type: 'integer', example: 1 }) totalPages: number;
  @ApiProperty({ type: 'integer', example: 0, description: 'Page number, 0-based' }) number: number;
  @ApiProperty({ type: 'integer', example: 20 }) size: number;
  @ApiProperty({
    description: 'false when totalElements is an estimate (more matches than SEARCH_EXACT_TOTAL)',
  })
  totalExact: boolean;
}
