import { Controller, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Route } from '../access/route.decorator';
import { CurrentPrincipal } from '../access/access-rules';
import type { Principal } from '../access/principal';
import { IdParam } from '../common/validation/id-param.pipe';
import { assertCompanyAccess, companyScope } from '../access/company-rule';
import { DocumentsService } from './documents.service';
import { AdminListQueryDto, CompanyQueryDto, FullTextQueryDto } from './dto/documents.dto';
import { OcrActions } from './ocr-actions';
import { DocumentAnalysisDetailDto, DocumentAnalysisPageDto } from './dto/document-analysis.dto';
import { DocumentStatsDto } from './dto/document-counts.dto';
import { ProcessResultDto, ReprocessFailedResultDto } from './dto/ocr-actions.dto';
import { OcrServiceStatusDto } from './dto/ocr-status.dto';

const OCR_OFF = 'OCR is not enabled for the company';
const OCR_OFF_OR_TYPE = 'OCR is not enabled for the company, or it does not read this file type';
const OCR_QUEUED = 'Already analyzed, queued or being processed';
const OCR_DOWN = 'The OCR engine is not available';

const ADMIN = (action: 'read' | 'update' | 'delete') => ({
  permissions: [`documents:${action}` as const],
  minRole: 'ADMIN' as const,
});

/** Administration of documents by file id (ADMIN and SUPER_ADMIN). */
@ApiTags('Document administration')
@Controller('api/admin/documents')
export class DocumentsAdminController {
  constructor(
    private readonly documents: DocumentsService,
    private readonly actions: OcrActions,
  ) {}

  @Route('GET', 'ocr-status', {
    summary: 'OCR service status',
    ...ADMIN('read'),
    response: OcrServiceStatusDto,
  })
  status() {
    return this.documents.serviceStatus();
  }

  @Route('GET', 'stats', {
    summary: "A company's document counts by status",
    ...ADMIN('read'),
    response: DocumentStatsDto,
  })
  stats(@CurrentPrincipal() principal: Principal, @Query() q: CompanyQueryDto) {
    assertCompanyAccess(principal, q.companyId);
    return this.documents.stats(q.companyId);
  }

  @Route('GET', '', {
    summary: "Page of a company's documents",
    ...ADMIN('read'),
    response: DocumentAnalysisPageDto,
  })
  list(@CurrentPrincipal() principal: Principal, @Query() q: AdminListQueryDto) {
    assertCompanyAccess(principal, q.companyId);
    return this.documents.list(q.companyId, q);
  }

  @Route('POST', 'reprocess-failed', {
    plainErrors: { 400: OCR_OFF, 503: OCR_DOWN },
    summary: "Queue a company's FAILED documents again",
    ...ADMIN('update'),
    response: ReprocessFailedResultDto,
    status: 200,
  })
  async reprocessFailed(@CurrentPrincipal() principal: Principal, @Query() q: CompanyQueryDto) {
    assertCompanyAccess(principal, q.companyId);
    const { message, status, count } = await this.actions.retryAllFailed(q.companyId);
    return { message, status, count };
  }

  @Route('GET', ':fileId', {
    plainErrors: { 404: 'Document analysis not found' },
    summary: 'The document content of a file',
    ...ADMIN('read'),
    response: DocumentAnalysisDetailDto,
    responseDescription: 'The document analysis record',
  })
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('fileId', IdParam) fileId: number,
    @Query() q: FullTextQueryDto,
  ) {
    return this.documents.detail(companyScope(principal, 'files'), { fileId }, q.includeFullText);
  }

  @Route('POST', ':fileId/process', {
    plainErrors: { 400: OCR_OFF_OR_TYPE, 404: 'File not found', 409: OCR_QUEUED, 503: OCR_DOWN },
    summary: 'Extract the text of a file of the company',
    ...ADMIN('update'),
    response: ProcessResultDto,
  })
  async process(
    @CurrentPrincipal() principal: Principal,
    @Param('fileId', IdParam) fileId: number,
    @Query() q: CompanyQueryDto,
  ) {
    assertCompanyAccess(principal, q.companyId);
    const { message, status } = await this.actions.analyze(null, q.companyId, fileId);
    return { message, status };
  }

  @Route('POST', ':fileId/reprocess', {
    plainErrors: { 400: OCR_OFF_OR_TYPE, 404: 'File not found', 503: OCR_DOWN },
    summary: 'Extract the text of a file again, even when it was read before',
    ...ADMIN('update'),
    response: ProcessResultDto,
  })
  async reprocess(@CurrentPrincipal() principal: Principal, @Param('fileId', IdParam) fileId: number) {
    const { message, status } = await this.actions.analyze(
      null,
      companyScope(principal, 'files'),
      fileId,
      true,
    );
    return { message, status };
  }

  @Route('DELETE', ':fileId', {
    plainErrors: { 404: 'Document analysis not found' },
    summary: "Remove a file's extracted content and search entry (the file stays)",
    ...ADMIN('delete'),
    responseDescription: 'Removed',
  })
  async remove(@CurrentPrincipal() principal: Principal, @Param('fileId', IdParam) fileId: number) {
    await this.documents.removeContent(companyScope(principal, 'files'), fileId);
  }
}
