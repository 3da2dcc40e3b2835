import { Body, Controller, Param, Query } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiTags } from '@nestjs/swagger';
import { Principal } from '../access/principal';
import { CurrentPrincipal, PermissionsPerType } from '../access/access-rules';
import { IdParam } from '../common/validation/id-param.pipe';
import { CountEnvelopeDto } from '../records/record-envelopes';
import { Route } from '../access/route.decorator';
import { CmsRecordQueries } from './cms-record-queries';
import { CmsRecordWrites } from './cms-record-writes';
import { CollectionNameParam } from './collection-name.pipe';
import { CmsCountQueryDto, CmsListQueryDto } from './dto/cms-query.dto';
import { BulkDeleteDto, CmsRecordEnvelopeDto, CmsRecordPageDto } from './dto/cms-views';
import {
  CMS_FILTER_SCHEMA,
  CmsAggregateDto,
  CmsAggregateEnvelopeDto,
  CmsGroupByDto,
} from '../records/aggregate.dto';

const RECORD_BODY = {
  schema: { type: 'object', additionalProperties: true, description: 'Attributes of the content type' },
};
const SEARCH_BODY = { schema: CMS_FILTER_SCHEMA };

/**
 * Records of custom tables, through the generic REST interface: each route's `cms:<action>` is held
 * for every table, or as `cms.<collection>:<action>` for the table of the path.
 */
@ApiTags('Custom tables')
@PermissionsPerType('collectionName')
@ApiExtraModels(CmsGroupByDto)
@Controller('api/cms/:collectionName')
export class CmsRecordsController {
  constructor(
    private readonly queries: CmsRecordQueries,
    private readonly writes: CmsRecordWrites,
  ) {}

  @Route('GET', 'count', {
    summary: 'Count records',
    permissions: ['cms:read'],
    response: CountEnvelopeDto,
    notFound: true,
  })
  count(
    @CurrentPrincipal() principal: Principal,
    @Param('collectionName', CollectionNameParam) name: string,
    @Query() q: CmsCountQueryDto,
  ) {
    return this.queries.count(principal, name, q.status);
  }

  @Route('POST', 'search', {
    summary: 'Search records with field filters and operators',
    permissions: ['cms:read'],
    response: CmsRecordPageDto,
    status: 200,
    notFound: true,
    badRequest: true,
  })
  @ApiBody(SEARCH_BODY)
  search(
    @CurrentPrincipal() principal: Principal,
    @Param('collectionName', CollectionNameParam) name: string,
    @Query() q: CmsListQueryDto,
    @Body() body: Record<string, unknown>,
  ) {
    return this.queries.list(principal, name, q, body);
  }

  @Route('POST', 'aggregate', {
    summary: 'Count, sum, average, minimum and maximum of the records a filter selects, optionally grouped',
    permissions: ['cms:read'],
    response: CmsAggregateEnvelopeDto,
    status: 200,
    notFound: true,
    badRequest: true,
  })
  @ApiBody({ type: CmsAggregateDto })
  aggregate(
    @CurrentPrincipal() principal: Principal,
    @Param('collectionName', CollectionNameParam) name: string,
    @Body() body: Record<string, unknown>,
  ) {
    return this.queries.aggregate(principal, name, body);
  }

  @Route('POST', 'bulk-delete', {
    summary: 'Delete several records by id',
    permissions: ['cms:delete'],
    response: CountEnvelopeDto,
    status: 200,
    notFound: true,
    badRequest: true,
  })
  @ApiBody({ type: BulkDeleteDto })
  bulkDelete(
    @CurrentPrincipal() principal: Principal,
    @Param('collectionName', CollectionNameParam) name: string,
    @Body() body: Record<string, unknown>,
  ) {
    return this.writes.bulkDelete(principal, name, body);
  }

  @Route('GET', '', {
    summary: 'List records',
    permissions: ['cms:read'],
    response: CmsRecordPageDto,
    notFound: true,
    badRequest: true,
  })
  list(
    @CurrentPrincipal() principal: Principal,
    @Param('collectionName', CollectionNameParam) name: string,
    @Query() q: CmsListQueryDto,
  ) {
    return this.queries.list(principal, name, q);
  }

  @Route('GET', ':id', {
    summary: 'One record',
    permissions: ['cms:read'],
    response: CmsRecordEnvelopeDto,
    notFound: true,
  })
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('collectionName', CollectionNameParam) name: string,
    @Param('id', IdParam) id: number,
  ) {
    return this.queries.get(principal, name, id);
  }

  @Route('POST', '', {
    summary: 'Create a record',
    permissions: ['cms:create'],
    response: CmsRecordEnvelopeDto,
    status: 201,
    notFound: true,
    badRequest: true,
    conflict: 'CONFLICT (unique value taken)',
  })
  @ApiBody(RECORD_BODY)
  create(
    @CurrentPrincipal() principal: Principal,
    @Param('collectionName', CollectionNameParam) name: string,
    @Body() body: Record<string, unknown>,
  ) {
    return this.writes.create(principal, name, body);
  }

  @Route('PUT', ':id', {
    summary: 'Update the given fields of a record',
    permissions: ['cms:update'],
    response: CmsRecordEnvelopeDto,
    notFound: true,
    badRequest: true,
    conflict: 'CONFLICT (unique value taken)',
  })
  @ApiBody(RECORD_BODY)
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('collectionName', CollectionNameParam) name: string,
    @Param('id', IdParam) id: number,
    @Body() body: Record<string, unknown>,
  ) {
    return this.writes.update(principal, name, id, body);
  }

  @Route('DELETE', ':id', { summary: 'Delete a record', permissions: ['cms:delete'], notFound: true })
  remove(
    @CurrentPrincipal() principal: Principal,
    @Param('collectionName', CollectionNameParam) name: string,
    @Param('id', IdParam) id: number,
  ) {
    return this.writes.remove(principal, name, id);
  }

  @Route('POST', ':id/publish', {
    summary: 'Publish a draft record (draftAndPublish types)',
    permissions: ['cms:publish'],
    response: CmsRecordEnvelopeDto,
    status: 200,
    notFound: true,
    badRequest: true,
    conflict: 'INVALID_TRANSITION',
  })
  publish(
    @CurrentPrincipal() principal: Principal,
    @Param('collectionName', CollectionNameParam) name: string,
    @Param('id', IdParam) id: number,
  ) {
    return this.writes.publish(principal, name, id, true);
  }

  @Route('POST', ':id/unpublish', {
    summary: 'Return a published record to draft',
    permissions: ['cms:publish'],
    response: CmsRecordEnvelopeDto,
    status: 200,
    notFound: true,
    badRequest: true,
    conflict: 'INVALID_TRANSITION',
  })
  unpublish(
    @CurrentPrincipal() principal: Principal,
    @Param('collectionName', CollectionNameParam) name: string,
    @Param('id', IdParam) id: number,
  ) {
    return this.writes.publish(principal, name, id, false);
  }
}
