import { Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from '../access/access-rules';
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

  @Get('ocr-status')
  @Authenticated(ADMIN('read'))
  @ApiOperation({ summary: 'OCR service status' })
  @ApiOkResponse({ type: OcrServiceStatusDto })
  status() {
    return this.documents.serviceStatus();
  }

  @Get('stats')
  @Authenticated(ADMIN('read'))
  @ApiOperation({ summary: "A company's document counts by status" })
  @ApiOkResponse({ type: DocumentStatsDto })
  stats(@CurrentPrincipal() principal: Principal, @Query() q: CompanyQueryDto) {
    assertCompanyAccess(principal, q.companyId);
    return this.documents.stats(q.companyId);
  }

  @Get()
  @Authenticated(ADMIN('read'))
  @ApiOperation({ summary: "Page of a company's documents" })
  @ApiOkResponse({ type: DocumentAnalysisPageDto })
  list(@CurrentPrincipal() principal: Principal, @Query() q: AdminListQueryDto) {
    assertCompanyAccess(principal, q.companyId);
    return this.documents.list(q.companyId, q);
  }

  @Post('reprocess-failed')
  @HttpCode(200)
  @Authenticated(ADMIN('update'))
  @ApiOperation({ summary: "Queue a company's FAILED documents again" })
  @ApiOkResponse({ type: ReprocessFailedResultDto })
  async reprocessFailed(@CurrentPrincipal() principal: Principal, @Query() q: CompanyQueryDto) {
    assertCompanyAccess(principal, q.companyId);
    const { message, status, count } = await this.actions.retryAllFailed(q.companyId);
    return { message, status, count };
  }

  @Get(':fileId')
  @Authenticated(ADMIN('read'))
  @ApiOperation({ summary: 'The document content of a file' })
  @ApiOkResponse({ type: DocumentAnalysisDetailDto, description: 'The document analysis record' })
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('fileId', IdParam) fileId: number,
    @Query() q: FullTextQueryDto,
  ) {
    return this.documents.detail(companyScope(principal, 'files'), { fileId }, q.includeFullText);
  }

  @Post(':fileId/process')
  @HttpCode(200)
  @Authenticated(ADMIN('update'))
  @ApiOperation({ summary: 'Extract the text of a file of the company' })
  @ApiOkResponse({ type: ProcessResultDto })
  async process(
    @CurrentPrincipal() principal: Principal,
    @Param('fileId', IdParam) fileId: number,
    @Query() q: CompanyQueryDto,
  ) {
    assertCompanyAccess(principal, q.companyId);
    const { message, status } = await this.actions.analyze(null, q.companyId, fileId);
    return { message, status };
  }

  @Post(':fileId/reprocess')
  @HttpCode(200)
  @Authenticated(ADMIN('update'))
  @ApiOperation({ summary: 'Extract the text of a file again, even when it was read before' })
  @ApiOkResponse({ type: ProcessResultDto })
  async reprocess(@CurrentPrincipal() principal: Principal, @Param('fileId', IdParam) fileId: number) {
    const { message, status } = await this.actions.analyze(null, companyScope(principal, 'files'), fileId, true);
    return { message, status };
  }

  @Delete(':fileId')
  @HttpCode(204)
  @Authenticated(ADMIN('delete'))
  @ApiOperation({ summary: "Remove a file's extracted content and search entry (the file stays)" })
  @ApiNoContentResponse({ description: 'Removed' })
  async remove(@CurrentPrincipal() principal: Principal, @Param('fileId', IdParam) fileId: number) {
    await this.documents.removeContent(companyScope(principal, 'files'), fileId);
  }
}
