import { Body, Controller, Param } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import { CountEnvelopeDto } from '../records/record-envelopes';
import { Route } from '../access/route.decorator';
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
    summary: 'List the content types of this schema',
    permissions: ['content_types:read'],
    response: ContentTypeListDto,
  })
  list() {
    return this.types.list();
  }

  @Route('GET', 'content-types/count', {
    summary: 'Count the content types',
    permissions: ['content_types:read'],
    response: CountEnvelopeDto,
  })
  count() {
    return this.types.count();
  }

  @Route('GET', 'content-types/:collectionName', {
    summary: 'One content type definition',
    permissions: ['content_types:read'],
    response: ContentTypeEnvelopeDto,
    notFound: true,
  })
  get(@Param('collectionName', CollectionNameParam) name: string) {
    return this.types.get(name);
  }

  @Route('GET', 'content-types/:collectionName/openapi', {
    summary: "OpenAPI 3 fragment of one type's record endpoints (for typed SDKs)",
    permissions: ['content_types:read'],
    response: OpenApiFragmentDto,
    notFound: true,
  })
  async openapi(@Param('collectionName', CollectionNameParam) name: string) {
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
    permissions: ['content_types:update'],
    response: ContentTypeEnvelopeDto,
    notFound: true,
    badRequest: true,
    conflict: 'CONFLICT (existing rows cannot take the change)',
  })
  @ApiBody({ type: ContentTypeDefinitionDto })
  replace(@Param('collectionName', CollectionNameParam) name: string, @Body() body: Record<string, unknown>) {
    return this.types.replace(name, body);
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
