import { ApiProperty } from '@nestjs/swagger';
import { DOCUMENT_STATUSES, DocumentStatus } from '../entities/document-content.entity';
import { DocumentFieldsDto } from './document-analysis.dto';

/** A search match: the list item with its status named `processingStatus`, its rank and highlights. */
export class DocumentSearchHitDto extends DocumentFieldsDto {
  @ApiProperty({ enum: DOCUMENT_STATUSES, example: 'COMPLETED' }) processingStatus: DocumentStatus;
  @ApiProperty({ example: 0.0759, description: "The match's rank (ts_rank's formula)" }) rank: number;
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
      'Matches: exact when totalExact; otherwise an estimate (above SEARCH_EXACT_TOTAL) or, without the RUM index, SEARCH_RANK_WINDOW',
  })
  totalElements: number;
  @ApiProperty({ type: 'integer', example: 1 }) totalPages: number;
  @ApiProperty({ type: 'integer', example: 0, description: 'Page number, 0-based' }) number: number;
  @ApiProperty({ type: 'integer', example: 20 }) size: number;
  @ApiProperty({
    description:
      'false when totalElements is not the exact count: an estimate above SEARCH_EXACT_TOTAL, or, without the RUM index, more matches than SEARCH_RANK_WINDOW (then the newest are ranked)',
  })
  totalExact: boolean;
}
