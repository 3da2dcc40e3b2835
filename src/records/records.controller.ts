import { Body, Controller, Inject, Param, Query, Type } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiTags } from '@nestjs/swagger';
import { CmsAggregateDto, CmsAggregateEnvelopeDto, CmsGroupByDto } from './aggregate.dto';
import { CurrentPrincipal } from '../access/access-rules';
import type { Resource } from '../access/permissions';
import { Principal } from '../access/principal';
import { IdParam } from '../common/validation/id-param.pipe';
import { EnvelopeOf, ListPageOf } from './record-envelopes';
import { Route } from '../access/route.decorator';

/** What a records controller calls; `RecordsService` plus the resource's list, create and update. */
export interface RecordsApi {
  list(principal: Principal, query: object): Promise<unknown>;
  get(principal: Principal, id: number): Promise<unknown>;
  create(principal: Principal, dto: object): Promise<unknown>;
  update(principal: Principal, id: number, dto: object): Promise<unknown>;
  remove(principal: Principal, id: number): Promise<void>;
  aggregate(principal: Principal, body: unknown): Promise<unknown>;
}

type Route = 'list' | 'get' | 'create' | 'update' | 'remove' | 'aggregate';

export interface RecordsControllerSpec {
  /** Route prefix (`api/work-orders`) and Swagger tag. */
  path: string;
  tag: string;
  /** Permissions are `{resource}:read|create|update|delete`. */
  resource: Resource;
  /** The record in words, singular and plural (`work order`, `work orders`). */
  one: string;
  many: string;
  view: Type<unknown>;
  create: Type<unknown>;
  update: Type<unknown>;
  query: Type<unknown>;
  /**
   * Whether the list documents records narrowed by `fields=` (default true). False keeps the page's
   * items typed as the full view for the typed client (units, whose client example reads every field).
   */
  narrowable?: boolean;
  /** Summaries that say more than the default ones. */
  summaries?: Partial<Record<Route, string>>;
  /** Routes that can answer 409, and when (e.g. `update: 'INVALID_TRANSITION: ...'`). */
  conflicts?: Partial<Record<Route, string>>;
}

/**
 * The five routes of a company-scoped resource (list, get, create, update, delete) as a controller
 * class to extend; the subclass adds the resource's own routes (named moves, count, ...) with
 * `@Route`, calling its service as `this.records`, and needs no constructor. The DTO classes of the spec are what the validation pipe and Swagger see.
 */
export function RecordsController<S extends RecordsApi>(service: Type<S>, spec: RecordsControllerSpec) {
  const { one, resource } = spec;
  const summary = (route: Route, fallback: string) => spec.summaries?.[route] ?? fallback;
  const envelope = EnvelopeOf(spec.view);

  @ApiTags(spec.tag)
  @ApiExtraModels(CmsGroupByDto)
  @Controller(spec.path)
  class Records {
    constructor(@Inject(service) readonly records: S) {}

    @Route('GET', '', {
      summary: summary('list', `List ${spec.many} (paged, company-scoped)`),
      permissions: [`${resource}:read`],
      response: ListPageOf(spec.view, spec.narrowable ?? true),
      badRequest: true,
    })
    list(@CurrentPrincipal() principal: Principal, @Query() query: object) {
      return this.records.list(principal, query);
    }

    @Route('POST', 'aggregate', {
      summary: summary(
        'aggregate',
        `Count, sum, average, minimum and maximum of the ${spec.many} a filter selects, optionally grouped`,
      ),
      permissions: [`${resource}:read`],
      response: CmsAggregateEnvelopeDto,
      status: 200,
      badRequest: true,
    })
    @ApiBody({ type: CmsAggregateDto })
    aggregate(@CurrentPrincipal() principal: Principal, @Body() body: Record<string, unknown>) {
      return this.records.aggregate(principal, body);
    }

    @Route('GET', ':id', {
      summary: summary('get', `Get a ${one}`),
      permissions: [`${resource}:read`],
      response: envelope,
      notFound: true,
    })
    get(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number) {
      return this.records.get(principal, id);
    }

    @Route('POST', '', {
      conflict: spec.conflicts?.create,
      summary: summary('create', `Create a ${one}`),
      permissions: [`${resource}:create`],
      response: envelope,
      badRequest: true,
    })
    create(@CurrentPrincipal() principal: Principal, @Body() dto: object) {
      return this.records.create(principal, dto);
    }

    @Route('PUT', ':id', {
      conflict: spec.conflicts?.update,
      summary: summary('update', `Update the given fields of a ${one}`),
      permissions: [`${resource}:update`],
      response: envelope,
      notFound: true,
      badRequest: true,
    })
    update(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number, @Body() dto: object) {
      return this.records.update(principal, id, dto);
    }

    @Route('DELETE', ':id', {
      conflict: spec.conflicts?.remove,
      summary: summary('remove', `Delete a ${one}`),
      permissions: [`${resource}:delete`],
      notFound: true,
    })
    remove(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number) {
      return this.records.remove(principal, id);
    }
  }
  // The handlers above serve every resource: tell Nest (validation) and Swagger its DTO classes.
  const paramTypes: Record<Route, unknown[]> = {
    list: [Object, spec.query],
    get: [Object, Number],
    create: [Object, spec.create],
    update: [Object, Number, spec.update],
    remove: [Object, Number],
    aggregate: [Object, Object],
  };
  for (const [route, types] of Object.entries(paramTypes)) {
    Reflect.defineMetadata('design:paramtypes', types, Records.prototype, route);
  }
  return Records;
}
