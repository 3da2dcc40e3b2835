import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from '../access/access-rules';
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

  @Get('summary')
  @Authenticated(READ)
  @ApiOperation({ summary: 'Counts by status, characters extracted, service availability, success rate' })
  @ApiOkResponse({ type: DocumentSummaryEnvelopeDto })
  async summary(@CurrentPrincipal() principal: Principal, @CompanyParam() companyId: number) {
    return { data: await this.documents.summary(companyId) };
  }

  @Get('queue-status')
  @Authenticated(MANAGE)
  @ApiOperation({ summary: 'Documents by processing status' })
  @ApiOkResponse({ type: DocumentQueueStatusEnvelopeDto })
  async queueStatus(
    @CurrentPrincipal() principal: Principal,
    @CompanyParam() companyId: number,
  ) {
    return { data: await this.documents.queueStatus(companyId) };
  }

  @Post('retry-all-failed')
  @HttpCode(200)
  @Authenticated(MANAGE)
  @ApiOperation({ summary: 'Queue every FAILED document again (3 per company per 5 minutes)' })
  @ApiOkResponse({ type: RetryAllResultEnvelopeDto })
  async retryAll(@CurrentPrincipal() principal: Principal, @CompanyParam() companyId: number) {
    const data = await this.actions.retryAllFailed(companyId);
    return { data, message: data.message };
  }

  @Post('analyze/:fileId')
  @HttpCode(200)
  @Authenticated(MANAGE)
  @ApiOperation({ summary: 'Extract the text of an uploaded file (20 per user per minute)' })
  @ApiOkResponse({ type: AnalyzeResultEnvelopeDto })
  async analyze(
    @CurrentPrincipal() principal: Principal,
    @CompanyParam() companyId: number,
    @Param('fileId', IdParam) fileId: number,
  ) {
    const data = await this.actions.analyze(principal, companyId, fileId);
    return { data, message: data.message };
  }

  @Get()
  @Authenticated(READ)
  @ApiOperation({ summary: 'Page of document analysis records' })
  @ApiOkResponse({ type: DocumentAnalysisPageDto })
  async list(
    @CurrentPrincipal() principal: Principal,
    @CompanyParam() companyId: number,
    @Query() q: AnalysisListQueryDto,
  ) {
    return this.documents.list(companyId, q);
  }

  @Get(':analysisId')
  @Authenticated(READ)
  @ApiOperation({ summary: 'One document analysis record, with its full text when asked' })
  @ApiOkResponse({ type: DocumentAnalysisDetailEnvelopeDto })
  async detail(
    @CurrentPrincipal() principal: Principal,
    @CompanyParam() companyId: number,
    @Param('analysisId', IdParam) analysisId: number,
    @Query() q: FullTextQueryDto,
  ) {
    return { data: await this.documents.detail(companyId, { id: analysisId }, q.includeFullText) };
  }

  @Post(':analysisId/retry')
  @HttpCode(200)
  @Authenticated(MANAGE)
  @ApiOperation({ summary: 'Queue a FAILED or SKIPPED document again (10 per user per minute)' })
  @ApiOkResponse({ type: RetryResultEnvelopeDto })
  async retry(
    @CurrentPrincipal() principal: Principal,
    @CompanyParam() companyId: number,
    @Param('analysisId', IdParam) analysisId: number,
  ) {
    const data = await this.actions.retry(principal, companyId, analysisId);
    return { data, message: data.message };
  }
}
