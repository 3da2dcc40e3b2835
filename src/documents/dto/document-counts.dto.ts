import { ApiProperty } from '@nestjs/swagger';

/** The document analysis summary of a company. */
export class DocumentSummaryDto {
  @ApiProperty({ type: 'integer', example: 3 }) companyId: number;
  @ApiProperty({ example: 'North Grid Energy' }) companyName: string;
  @ApiProperty({ description: 'OCR on globally and for the company' }) ocrEnabled: boolean;
  @ApiProperty({ example: 'en' }) ocrLanguage: string;
  @ApiProperty() ocrAutoProcess: boolean;
  @ApiProperty({ type: 'integer', example: 57 }) totalDocuments: number;
  @ApiProperty({ type: 'integer', example: 50 }) completedCount: number;
  @ApiProperty({ type: 'integer', example: 2 }) failedCount: number;
  @ApiProperty({ type: 'integer', example: 3 }) pendingCount: number;
  @ApiProperty({ type: 'integer', example: 1 }) processingCount: number;
  @ApiProperty({ type: 'integer', example: 1 }) skippedCount: number;
  @ApiProperty({ type: 'integer', example: 104520 }) totalCharactersExtracted: number;
  @ApiProperty() serviceAvailable: boolean;
  @ApiProperty({
    example: 96.15,
    description: 'Percent of COMPLETED among COMPLETED and FAILED (2 decimals; 0 when none)',
  })
  successRate: number;
}

export class DocumentSummaryEnvelopeDto {
  @ApiProperty({ type: DocumentSummaryDto }) data: DocumentSummaryDto;
}

/** A company's documents by processing status. */
export class DocumentQueueStatusDto {
  @ApiProperty({ type: 'integer', example: 3 }) pending: number;
  @ApiProperty({ type: 'integer', example: 1 }) processing: number;
  @ApiProperty({ type: 'integer', example: 50 }) completed: number;
  @ApiProperty({ type: 'integer', example: 2 }) failed: number;
  @ApiProperty({ type: 'integer', example: 1 }) skipped: number;
  @ApiProperty({ type: 'integer', example: 57 }) total: number;
}

export class DocumentQueueStatusEnvelopeDto {
  @ApiProperty({ type: DocumentQueueStatusDto }) data: DocumentQueueStatusDto;
}

/** Document counts keyed by status. */
export class DocumentStatusCountsDto {
  @ApiProperty({ type: 'integer', example: 3 }) PENDING: number;
  @ApiProperty({ type: 'integer', example: 1 }) PROCESSING: number;
  @ApiProperty({ type: 'integer', example: 50 }) COMPLETED: number;
  @ApiProperty({ type: 'integer', example: 2 }) FAILED: number;
  @ApiProperty({ type: 'integer', example: 1 }) SKIPPED: number;
}

/** A company's document counts (administration). */
export class DocumentStatsDto {
  @ApiProperty({ type: 'integer', example: 3 }) companyId: number;
  @ApiProperty({ type: 'integer', example: 57 }) totalDocuments: number;
  @ApiProperty({ type: DocumentStatusCountsDto }) statusCounts: DocumentStatusCountsDto;
  @ApiProperty({ type: 'integer', example: 104520 }) totalCharactersExtracted: number;
  @ApiProperty({ type: 'integer', example: 50 }) indexedDocuments: number;
}
