import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DOCUMENT_STATUSES, DocumentStatus } from '../entities/document-content.entity';

const STATUS_LABELS = ['Pending', 'Processing', 'Completed', 'Failed', 'Skipped'];

/** The fields every document analysis record has (see documentView), its status aside. */
export class DocumentFieldsDto {
  @ApiProperty({ type: 'integer', example: 42 }) id: number;
  @ApiProperty({ type: 'integer', example: 7 }) fileId: number;
  @ApiProperty({ example: 'inspection-report.pdf' }) fileName: string;
  @ApiProperty({ example: '/api/files/7/content' }) fileUrl: string;
  @ApiProperty({ example: 'application/pdf' }) mimeType: string;
  @ApiProperty({ enum: STATUS_LABELS, example: 'Completed', description: 'The status in words' })
  statusLabel: string;
  @ApiProperty({ type: String, nullable: true, description: 'Why the extraction failed' })
  errorMessage: string | null;
  @ApiProperty({ description: 'The first 500 characters of the extracted text ("" when none)' })
  textPreview: string;
  @ApiProperty({ type: 'integer', example: 1834, description: 'Characters extracted' }) textLength: number;
  @ApiProperty({ type: 'integer', example: 290 }) wordCount: number;
  @ApiProperty({
    type: 'integer',
    example: 3,
    description: "The PDF's or TIFF's page count, 1 otherwise; known from the start of PROCESSING",
  })
  pageCount: number;
  @ApiProperty({
    type: 'integer',
    example: 2,
    description:
      'Pages read so far: grows while PROCESSING (a scanned page counts once OCR has read it), pageCount once ' +
      'COMPLETED, where reading stopped when FAILED',
  })
  pagesProcessed: number;
  @ApiProperty({ type: Number, nullable: true, example: 0.9312, minimum: 0, maximum: 1 })
  ocrConfidence: number | null;
  @ApiProperty({ type: String, nullable: true, example: 'en' }) ocrLanguage: string | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 2450 }) processingDurationMs: number | null;
  @ApiProperty({ type: Date, nullable: true }) processingStartedAt: Date | null;
  @ApiProperty() createdAt: Date;
  @ApiProperty({ type: Date, nullable: true }) processedAt: Date | null;
  @ApiProperty() indexedForSearch: boolean;
  @ApiProperty({ type: 'integer', nullable: true, example: 93, description: 'round(ocrConfidence × 100)' })
  confidencePercent: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 2.45 }) processingDurationSeconds: number | null;
  @ApiProperty({ example: 118.27 }) fileSizeKb: number;
  @ApiProperty({ description: 'FAILED' }) retryable: boolean;
  @ApiProperty({ description: 'COMPLETED' }) complete: boolean;
  @ApiProperty({ description: 'PENDING or PROCESSING' }) inProgress: boolean;
  @ApiProperty({ example: 'UPLOAD' }) fileType: string;
  @ApiProperty({ type: 'integer', example: 3 }) companyId: number;
}

/** An item of the document analysis lists (`textPreview`, never the whole text). */
export class DocumentAnalysisDto extends DocumentFieldsDto {
  @ApiProperty({ enum: DOCUMENT_STATUSES, example: 'COMPLETED' }) status: DocumentStatus;
}

/** One document analysis record: the list item, the file's size and, when asked, the whole text. */
export class DocumentAnalysisDetailDto extends DocumentAnalysisDto {
  @ApiProperty({ type: 'integer', example: 121108 }) fileSizeBytes: number;
  @ApiPropertyOptional({
    description: 'The whole extracted text ("" when none); only with includeFullText=true',
  })
  extractedText?: string;
}

export class DocumentAnalysisDetailEnvelopeDto {
  @ApiProperty({ type: DocumentAnalysisDetailDto }) data: DocumentAnalysisDetailDto;
}

/** A page of document analysis records. */
export class DocumentAnalysisPageDto {
  @ApiProperty({ type: [DocumentAnalysisDto] }) content: DocumentAnalysisDto[];
  @ApiProperty({ type: 'integer', example: 57 }) totalElements: number;
  @ApiProperty({ type: 'integer', example: 3 }) totalPages: number;
  @ApiProperty({ type: 'integer', example: 0, description: 'Page number, 0-based' }) number: number;
  @ApiProperty({ type: 'integer', example: 20 }) size: number;
}
