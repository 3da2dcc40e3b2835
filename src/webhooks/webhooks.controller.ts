import { Body, Controller, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Route } from '../access/route.decorator';
import { CurrentPrincipal } from '../access/access-rules';
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

  @Route('GET', 'event-types', {
    summary: 'List the event types a webhook can subscribe to',
    permissions: ['webhooks:read'],
    minRole: 'ADMIN',
    response: EventTypeListDto,
  })
  eventTypes() {
    return this.webhooks.eventTypes();
  }

  @Route('GET', 'company/:id', {
    summary: 'List the webhooks of a company',
    permissions: ['webhooks:read'],
    minRole: 'ADMIN',
    response: WebhookListDto,
  })
  listForCompany(@Param('id', IdParam) id: number) {
    return this.webhooks.listForCompany(id);
  }

  @Route('GET', 'deliveries/:id', {
    summary: 'Get one delivery',
    permissions: ['webhooks:read'],
    minRole: 'ADMIN',
    response: DeliveryEnvelopeDto,
    notFound: true,
  })
  delivery(@Param('id', IdParam) id: number) {
    return this.deliveries.get(id);
  }

  @Route('POST', 'deliveries/:id/retry', {
    summary: 'Retry a FAILED delivery (one more attempt, queued now)',
    permissions: ['webhooks:update'],
    minRole: 'ADMIN',
    response: DeliveryEnvelopeDto,
    status: 202,
    conflict: 'The delivery is not FAILED',
    notFound: true,
  })
  retry(@Param('id', IdParam) id: number) {
    return this.deliveries.retry(id);
  }

  @Route('POST', '', {
    summary: 'Create a webhook; the answer carries its secret, shown only this once',
    permissions: ['webhooks:create'],
    minRole: 'ADMIN',
    response: CreatedWebhookEnvelopeDto,
    badRequest: 'VALIDATION_ERROR (limits, unknown events, refused target)',
  })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateWebhookDto) {
    return this.webhooks.create(principal, dto);
  }

  @Route('GET', ':id', {
    summary: 'Get a webhook',
    permissions: ['webhooks:read'],
    minRole: 'ADMIN',
    response: WebhookEnvelopeDto,
    notFound: true,
  })
  get(@Param('id', IdParam) id: number) {
    return this.webhooks.get(id);
  }

  @Route('PUT', ':id', {
    summary: 'Update the given fields of a webhook',
    permissions: ['webhooks:update'],
    minRole: 'ADMIN',
    response: WebhookEnvelopeDto,
    notFound: true,
  })
  update(@Param('id', IdParam) id: number, @Body() dto: UpdateWebhookDto) {
    return this.webhooks.update(id, dto);
  }

  @Route('DELETE', ':id', {
    summary: 'Delete a webhook and its delivery history',
    permissions: ['webhooks:delete'],
    minRole: 'ADMIN',
    notFound: true,
  })
  remove(@Param('id', IdParam) id: number) {
    return this.webhooks.remove(id);
  }

  @Route('POST', ':id/enable', {
    summary: 'Enable a webhook and reset its failure counter',
    permissions: ['webhooks:update'],
    minRole: 'ADMIN',
    response: WebhookEnvelopeDto,
  })
  enable(@Param('id', IdParam) id: number) {
    return this.webhooks.setActive(id, true);
  }

  @Route('POST', ':id/disable', {
    summary: 'Disable a webhook',
    permissions: ['webhooks:update'],
    minRole: 'ADMIN',
    response: WebhookEnvelopeDto,
  })
  disable(@Param('id', IdParam) id: number) {
    return this.webhooks.setActive(id, false);
  }

  @Route('POST', ':id/regenerate-secret', {
    summary: 'Replace the secret; the answer carries the new one, shown only this once',
    permissions: ['webhooks:update'],
    minRole: 'ADMIN',
    response: RegeneratedSecretEnvelopeDto,
  })
  regenerateSecret(@Param('id', IdParam) id: number) {
    return this.webhooks.regenerateSecret(id);
  }

  @Route('POST', ':id/test', {
    summary: 'Send a test ping (event webhook.ping) now and answer its delivery record',
    permissions: ['webhooks:update'],
    minRole: 'ADMIN',
    response: DeliveryEnvelopeDto,
  })
  test(@Param('id', IdParam) id: number) {
    return this.deliveries.ping(id);
  }

  @Route('GET', ':id/deliveries', {
    summary: 'Delivery history of a webhook, newest first',
    permissions: ['webhooks:read'],
    minRole: 'ADMIN',
    response: DeliveryListDto,
  })
  list(@Param('id', IdParam) id: number, @Query() query: DeliveryQueryDto) {
    return this.deliveries.list(id, query.limit);
  }
}
