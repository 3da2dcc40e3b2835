import { Body, Controller, Param, Query } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import { CountEnvelopeDto } from '../records/record-envelopes';
import { CurrentPrincipal } from '../access/access-rules';
import { Principal } from '../access/principal';
import { Route } from '../access/route.decorator';
import { assertCms } from './cms-permissions';
import { openApiFragment as cmsOpenApi } from './cms-openapi';
import { CollectionNameParam } from './collection-name.pipe';
import { ContentTypeCache } from './content-type-cache';
import { ContentTypeSync } from './content-type-sync.service';
import { ContentTypesService } from './content-types.service';
import {
  ContentTypeCreatedDto,
  ContentTypeDefinitionDto,
  ContentTypeEnvelopeDto,
  ContentTypeListDto,
  OpenApiFragmentDto,
  SyncReportDto,
} from './dto/cms-views';
import { ReplaceContentTypeQueryDto } from './dto/content-type-query.dto';

/** Definitions of custom tables (`content_types:*`). Registered before the records controller. */
@ApiTags('Custom tables')
@Controller('api/cms')
export class ContentTypesController {
  constructor(
    private readonly types: ContentTypesService,
    private readonly sync: ContentTypeSync,
    private readonly cache: ContentTypeCache,
  ) {}

  @Route('GET', 'content-types', {
    summary: 'List the content types of this schema whose records the caller may read',
    permissions: ['content_types:read'],
    response: ContentTypeListDto,
  })
  list(@CurrentPrincipal() principal: Principal) {
    return this.types.list(principal);
  }

  @Route('GET', 'content-types/count', {
    summary: 'Count the content types whose records the caller may read',
    permissions: ['content_types:read'],
    response: CountEnvelopeDto,
  })
  count(@CurrentPrincipal() principal: Principal) {
    return this.types.count(principal);
  }

  @Route('GET', 'content-types/:collectionName', {
    summary: 'One content type definition',
    description: 'Needs `cms:read` or `cms.<collectionName>:read` as well (403 otherwise).',
    permissions: ['content_types:read'],
    response: ContentTypeEnvelopeDto,
    notFound: true,
  })
  get(@CurrentPrincipal() principal: Principal, @Param('collectionName', CollectionNameParam) name: string) {
    return this.types.get(principal, name);
  }

  @Route('GET', 'content-types/:collectionName/openapi', {
    summary: "OpenAPI 3 fragment of one type's record endpoints (for typed SDKs)",
    description: 'Needs `cms:read` or `cms.<collectionName>:read` as well (403 otherwise).',
    permissions: ['content_types:read'],
    response: OpenApiFragmentDto,
    notFound: true,
  })
  async openapi(
    @CurrentPrincipal() principal: Principal,
    @Param('collectionName', CollectionNameParam) name: string,
  ) {
    assertCms(principal, name, 'read');
    return { data: cmsOpenApi(await this.cache.get(name)) };
  }

  @Route('POST', 'content-types', {
    summary: 'Create a content type and its table',
    permissions: ['content_types:create'],
    response: ContentTypeCreatedDto,
    badRequest: true,
    conflict: 'CONFLICT (name taken)',
  })
  @ApiBody({ type: ContentTypeDefinitionDto })
  create(@Body() body: Record<string, unknown>) {
    return this.types.create(body);
  }

  @Route('PUT', 'content-types/:collectionName', {
    summary: 'Replace a definition, altering the table in one transaction (rows kept)',
    description:
      'Without `options.companyScoped` the stored scope is kept. Moving a type that has records into or out of company scope needs ADMIN or above (403); into it, `companyId` names the company its records go to (409 without).',
    permissions: ['content_types:update'],
    response: ContentTypeEnvelopeDto,
    notFound: true,
    badRequest: true,
    conflict: 'CONFLICT (existing rows cannot take the change, or records need a companyId)',
  })
  @ApiBody({ type: ContentTypeDefinitionDto })
  replace(
    @CurrentPrincipal() principal: Principal,
    @Param('collectionName', CollectionNameParam) name: string,
    @Query() q: ReplaceContentTypeQueryDto,
    @Body() body: Record<string, unknown>,
  ) {
    return this.types.replace(principal, name, body, q.companyId);
  }

  @Route('DELETE', 'content-types/:collectionName', {
    summary: 'Delete a content type with its table and data',
    permissions: ['content_types:delete'],
    notFound: true,
    conflict: "CONFLICT (target of another type's relation)",
  })
  remove(@Param('collectionName', CollectionNameParam) name: string) {
    return this.types.remove(name);
  }

  @Route('POST', 'migrations/sync', {
    summary: 'Reconcile the definitions with the tables (creates what is missing, drops nothing)',
    permissions: ['content_types:update'],
    response: SyncReportDto,
    status: 200,
  })
  syncTables() {
    return this.sync.sync();
  }
}
