import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from '../access/access-rules';
import { Principal } from '../access/principal';
import { DeliveriesService } from './deliveries.service';
import { DeliveryEnvelopeDto, DeliveryListDto, DeliveryQueryDto } from './dto/delivery.dto';
import {
  CreatedWebhookEnvelopeDto,
  CreateWebhookDto,
  EventTypeListDto,
  RegeneratedSecretEnvelopeDto,
  UpdateWebhookDto,
  WebhookEnvelopeDto,
  WebhookListDto,
} from './dto/webhook.dto';
import { WebhooksService } from './webhooks.service';
import { IdParam } from '../common/validation/id-param.pipe';

/** Webhook administration (ADMIN only through the webhooks:* permissions). Fixed paths come first. */
@ApiTags('Admin: webhooks')
@Controller('api/admin/webhooks')
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly deliveries: DeliveriesService,
  ) {}

  @Get('event-types')
  @Authenticated({ minRole: 'ADMIN', permissions: ['webhooks:read'] })
  @ApiOperation({ summary: 'List the event types a webhook can subscribe to' })
  @ApiOkResponse({ type: EventTypeListDto })
  eventTypes() {
    return this.webhooks.eventTypes();
  }

  @Get('company/:id')
  @Authenticated({ minRole: 'ADMIN', permissions: ['webhooks:read'] })
  @ApiOperation({ summary: 'List the webhooks of a company' })
  @ApiOkResponse({ type: WebhookListDto })
  listForCompany(@Param('id', IdParam) id: number) {
    return this.webhooks.listForCompany(id);
  }

  @Get('deliveries/:id')
  @Authenticated({ minRole: 'ADMIN', permissions: ['webhooks:read'] })
  @ApiOperation({ summary: 'Get one delivery' })
  @ApiOkResponse({ type: DeliveryEnvelopeDto })
  @ApiNotFoundResponse()
  delivery(@Param('id', IdParam) id: number) {
    return this.deliveries.get(id);
  }

  @Post('deliveries/:id/retry')
  @HttpCode(202)
  @Authenticated({ minRole: 'ADMIN', permissions: ['webhooks:update'] })
  @ApiOperation({ summary: 'Retry a FAILED delivery (one more attempt, queued now)' })
  @ApiAcceptedResponse({ type: DeliveryEnvelopeDto })
  @ApiConflictResponse({ description: 'The delivery is not FAILED' })
  @ApiNotFoundResponse()
  retry(@Param('id', IdParam) id: number) {
    return this.deliveries.retry(id);
  }

  @Post()
  @Authenticated({ minRole: 'ADMIN', permissions: ['webhooks:create'] })
  @ApiOperation({ summary: 'Create a webhook; the answer carries its secret, shown only this once' })
  @ApiCreatedResponse({ type: CreatedWebhookEnvelopeDto })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR (limits, unknown events, refused target)' })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateWebhookDto) {
    return this.webhooks.create(principal, dto);
  }

  @Get(':id')
  @Authenticated({ minRole: 'ADMIN', permissions: ['webhooks:read'] })
  @ApiOperation({ summary: 'Get a webhook' })
  @ApiOkResponse({ type: WebhookEnvelopeDto })
  @ApiNotFoundResponse()
  get(@Param('id', IdParam) id: number) {
    return this.webhooks.get(id);
  }

  @Put(':id')
  @Authenticated({ minRole: 'ADMIN', permissions: ['webhooks:update'] })
  @ApiOperation({ summary: 'Update the given fields of a webhook' })
  @ApiOkResponse({ type: WebhookEnvelopeDto })
  @ApiNotFoundResponse()
  update(@Param('id', IdParam) id: number, @Body() dto: UpdateWebhookDto) {
    return this.webhooks.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ minRole: 'ADMIN', permissions: ['webhooks:delete'] })
  @ApiOperation({ summary: 'Delete a webhook and its delivery history' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse()
  remove(@Param('id', IdParam) id: number) {
    return this.webhooks.remove(id);
  }

  @Post(':id/enable')
  @HttpCode(200)
  @Authenticated({ minRole: 'ADMIN', permissions: ['webhooks:update'] })
  @ApiOperation({ summary: 'Enable a webhook and reset its failure counter' })
  @ApiOkResponse({ type: WebhookEnvelopeDto })
  enable(@Param('id', IdParam) id: number) {
    return this.webhooks.setActive(id, true);
  }

  @Post(':id/disable')
  @HttpCode(200)
  @Authenticated({ minRole: 'ADMIN', permissions: ['webhooks:update'] })
  @ApiOperation({ summary: 'Disable a webhook' })
  @ApiOkResponse({ type: WebhookEnvelopeDto })
  disable(@Param('id', IdParam) id: number) {
    return this.webhooks.setActive(id, false);
  }

  @Post(':id/regenerate-secret')
  @HttpCode(200)
  @Authenticated({ minRole: 'ADMIN', permissions: ['webhooks:update'] })
  @ApiOperation({ summary: 'Replace the secret; the answer carries the new one, shown only this once' })
  @ApiOkResponse({ type: RegeneratedSecretEnvelopeDto })
  regenerateSecret(@Param('id', IdParam) id: number) {
    return this.webhooks.regenerateSecret(id);
  }

  @Post(':id/test')
  @HttpCode(200)
  @Authenticated({ minRole: 'ADMIN', permissions: ['webhooks:update'] })
  @ApiOperation({ summary: 'Send a test ping (event webhook.ping) now and answer its delivery record' })
  @ApiOkResponse({ type: DeliveryEnvelopeDto })
  test(@Param('id', IdParam) id: number) {
    return this.deliveries.ping(id);
  }

  @Get(':id/deliveries')
  @Authenticated({ minRole: 'ADMIN', permissions: ['webhooks:read'] })
  @ApiOperation({ summary: 'Delivery history of a webhook, newest first' })
  @ApiOkResponse({ type: DeliveryListDto })
  list(@Param('id', IdParam) id: number, @Query() query: DeliveryQueryDto) {
    return this.deliveries.list(id, query.limit);
  }
}
