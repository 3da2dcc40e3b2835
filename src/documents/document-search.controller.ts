import { Controller, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Route } from '../access/route.decorator';
import { CurrentPrincipal } from '../access/access-rules';
import type { Principal } from '../access/principal';
import { IdParam } from '../common/validation/id-param.pipe';
import { assertCompanyAccess, companyScope } from '../access/company-rule';
import { DocumentSearchService } from './document-search.service';
import { DocumentsService } from './documents.service';
import { FullTextQueryDto, DocumentSearchQueryDto } from './dto/documents.dto';
import { DocumentAnalysisDetailDto } from './dto/document-analysis.dto';
import { DocumentSearchPageDto } from './dto/document-search.dto';

@ApiTags('Document search')
@Controller('search/documents')
export class DocumentSearchController {
  constructor(
    private readonly search: DocumentSearchService,
    private readonly documents: DocumentsService,
  ) {}

  @Route('GET', '', {
    summary: "Full-text search in a company's documents, ranked, with highlights",
    permissions: ['documents:read'],
    response: DocumentSearchPageDto,
    responseDescription:
      'Every match ranked, best first, then newest first; the total exact up to SEARCH_EXACT_TOTAL and ' +
      'estimated above (totalExact false)',
  })
  find(@CurrentPrincipal() principal: Principal, @Query() q: DocumentSearchQueryDto) {
    assertCompanyAccess(principal, q.companyId);
    return this.search.search(q.companyId, q.q, q.page, q.size);
  }

  @Route('GET', ':fileId', {
    summary: 'The document content of a file',
    permissions: ['documents:read'],
    response: DocumentAnalysisDetailDto,
    responseDescription: 'The document analysis record',
    plainErrors: { 404: 'No document content for this file' },
  })
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('fileId', IdParam) fileId: number,
    @Query() q: FullTextQueryDto,
  ) {
    return this.documents.detail(companyScope(principal, 'files'), { fileId }, q.includeFullText);
  }
}
