import { ApiProperty } from '@nestjs/swagger';

/** Queued documents are answered `processing` (lower-case, unlike the record's status). */
const QUEUED = { enum: ['processing'], example: 'processing' };

export class RetryResultDto {
  @ApiProperty({ example: 'Document queued for processing' }) message: string;
  @ApiProperty({ type: 'integer', example: 42 }) analysisId: number;
  @ApiProperty(QUEUED) status: string;
}

export class RetryResultEnvelopeDto {
  @ApiProperty({ type: RetryResultDto }) data: RetryResultDto;
  @ApiProperty({ example: 'Document queued for processing' }) message: string;
}

export class RetryAllResultDto {
  @ApiProperty({ example: '2 failed documents queued for processing' }) message: string;
  @ApiProperty({ type: 'integer', example: 2, description: 'FAILED documents queued' }) count: number;
  @ApiProperty(QUEUED) status: string;
}

export class RetryAllResultEnvelopeDto {
  @ApiProperty({ type: RetryAllResultDto }) data: RetryAllResultDto;
  @ApiProperty({ example: '2 failed documents queued for processing' }) message: string;
}

export class AnalyzeResultDto {
  @ApiProperty({ example: 'Document queued for processing' }) message: string;
  @ApiProperty({ type: 'integer', example: 7 }) fileId: number;
  @ApiProperty({ example: 'inspection-report.pdf' }) fileName: string;
  @ApiProperty(QUEUED) status: string;
}

export class AnalyzeResultEnvelopeDto {
  @ApiProperty({ type: AnalyzeResultDto }) data: AnalyzeResultDto;
  @ApiProperty({ example: 'Document queued for processing' }) message: string;
}

/** The answer of the administration's process and reprocess. */
export class ProcessResultDto {
  @ApiProperty({ example: 'Document queued for processing' }) message: string;
  @ApiProperty(QUEUED) status: string;
}

/** The answer of the administration's reprocess-failed. */
export class ReprocessFailedResultDto {
  @ApiProperty({ example: '2 failed documents queued for processing' }) message: string;
  @ApiProperty(QUEUED) status: string;
  @ApiProperty({ type: 'integer', example: 2, description: 'FAILED documents queued' }) count: number;
}
