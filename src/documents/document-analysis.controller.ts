import { Controller, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Route } from '../access/route.decorator';
import { CurrentPrincipal } from '../access/access-rules';
import type { Principal } from '../access/principal';
import { IdParam } from '../common/validation/id-param.pipe';
import { DocumentsService } from './documents.service';
import { AnalysisListQueryDto, FullTextQueryDto } from './dto/documents.dto';
import { OcrActions } from './ocr-actions';
import { DocumentAnalysisDetailEnvelopeDto, DocumentAnalysisPageDto } from './dto/document-analysis.dto';
import { DocumentQueueStatusEnvelopeDto, DocumentSummaryEnvelopeDto } from './dto/document-counts.dto';
import {
  AnalyzeResultEnvelopeDto,
  RetryAllResultEnvelopeDto,
  RetryResultEnvelopeDto,
} from './dto/ocr-actions.dto';
import { CompanyParam } from '../access/company-param.decorator';

const OCR_OFF = 'OCR is not enabled for the company';
const OCR_OFF_OR_TYPE = 'OCR is not enabled for the company, or it does not read this file type';
const OCR_QUEUED = 'Already analyzed, queued or being processed';
const OCR_RATE = 'Too many requests, with Retry-After';
const OCR_DOWN = 'The OCR engine is not available';

const READ = { permissions: ['documents:read' as const] };
const MANAGE = { permissions: ['documents:update' as const], minRole: 'MANAGER' as const };

/** Document analysis records of one company (the company of the path). */
@ApiTags('Document analysis')
@Controller('api/companies/:companyId/document-analysis')
export class DocumentAnalysisController {
  constructor(
    private readonly documents: DocumentsService,
    private readonly actions: OcrActions,
  ) {}

  @Route('GET', 'summary', {
    summary: 'Counts by status, characters extracted, service availability, success rate',
    ...READ,
    response: DocumentSummaryEnvelopeDto,
  })
  async summary(@CurrentPrincipal() principal: Principal, @CompanyParam() companyId: number) {
    return { data: await this.documents.summary(companyId) };
  }

  @Route('GET', 'queue-status', {
    summary: 'Documents by processing status',
    ...MANAGE,
    response: DocumentQueueStatusEnvelopeDto,
  })
  async queueStatus(@CurrentPrincipal() principal: Principal, @CompanyParam() companyId: number) {
    return { data: await this.documents.queueStatus(companyId) };
  }

  @Route('POST', 'retry-all-failed', {
    plainErrors: { 400: OCR_OFF, 429: OCR_RATE, 503: OCR_DOWN },
    summary: 'Queue every FAILED document again (3 per company per 5 minutes)',
    ...MANAGE,
    response: RetryAllResultEnvelopeDto,
    status: 200,
  })
  async retryAll(@CurrentPrincipal() principal: Principal, @CompanyParam() companyId: number) {
    const data = await this.actions.retryAllFailed(companyId);
    return { data, message: data.message };
  }

  @Route('POST', 'analyze/:fileId', {
    plainErrors: {
      400: OCR_OFF_OR_TYPE,
      404: 'File not found',
      409: OCR_QUEUED,
      429: OCR_RATE,
      503: OCR_DOWN,
    },
    summary: 'Extract the text of an uploaded file (20 per user per minute)',
    ...MANAGE,
    response: AnalyzeResultEnvelopeDto,
  })
  async analyze(
    @CurrentPrincipal() principal: Principal,
    @CompanyParam() companyId: number,
    @Param('fileId', IdParam) fileId: number,
  ) {
    const data = await this.actions.analyze(principal, companyId, fileId);
    return { data, message: data.message };
  }

  @Route('GET', '', {
    summary: 'Page of document analysis records',
    ...READ,
    response: DocumentAnalysisPageDto,
  })
  async list(
    @CurrentPrincipal() principal: Principal,
    @CompanyParam() companyId: number,
    @Query() q: AnalysisListQueryDto,
  ) {
    return this.documents.list(companyId, q);
  }

  @Route('GET', ':analysisId', {
    plainErrors: { 404: 'Document analysis not found' },
    summary: 'One document analysis record, with its full text when asked',
    ...READ,
    response: DocumentAnalysisDetailEnvelopeDto,
  })
  async detail(
    @CurrentPrincipal() principal: Principal,
    @CompanyParam() companyId: number,
    @Param('analysisId', IdParam) analysisId: number,
    @Query() q: FullTextQueryDto,
  ) {
    return { data: await this.documents.detail(companyId, { id: analysisId }, q.includeFullText) };
  }

  @Route('POST', ':analysisId/retry', {
    plainErrors: {
      400: OCR_OFF_OR_TYPE,
      404: 'Document analysis not found',
      409: OCR_QUEUED,
      429: OCR_RATE,
      503: OCR_DOWN,
    },
    summary: 'Queue a FAILED or SKIPPED document again (10 per user per minute)',
    ...MANAGE,
    response: RetryResultEnvelopeDto,
  })
  async retry(
    @CurrentPrincipal() principal: Principal,
    @CompanyParam() companyId: number,
    @Param('analysisId', IdParam) analysisId: number,
  ) {
    const data = await this.actions.retry(principal, companyId, analysisId);
    return { data, message: data.message };
  }
}
