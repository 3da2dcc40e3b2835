import { DynamicModule, Module, Provider } from '@nestjs/common';
import { settingsProvider } from '../config/config.module';
import { OutboundModule } from '../outbound/outbound.module';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveriesService } from './deliveries.service';
import { DeliveryActivity } from './delivery-activity';
import { DeliveryAttempts } from './delivery-attempts';
import { DeliveryStore } from './delivery-store';
import { DeliverySweeper } from './delivery-sweeper';
import { DeliveryProcessor } from './delivery.processor';
import { EndpointLimiter } from './endpoint-limiter';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookMetrics } from './webhook-metrics';
import { WebhookQueue } from './webhook-queue';
import { WebhookSender } from './webhook-sender';
import { WebhookSettings } from './webhook.settings';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/** Outbound webhooks. The processor and the sweeper run only where queue processors are enabled. */
@Module({})
export class WebhooksModule {
  static register(options: { processors: boolean }): DynamicModule {
    const processors: Provider[] = options.processors ? [DeliveryProcessor, DeliverySweeper] : [];
    return {
      module: WebhooksModule,
      imports: [OutboundModule],
      controllers: [WebhooksController],
      providers: [
        settingsProvider(WebhookSettings),
        WebhooksRepository,
        DeliveriesRepository,
        WebhookQueue,
        WebhookMetrics,
        WebhookSender,
        EndpointLimiter,
        DeliveryAttempts,
        DeliveryActivity,
        DeliveryStore,
        WebhookDispatcher,
        WebhooksService,
        DeliveriesService,
        ...processors,
      ],
      exports: [WebhookSettings],
    };
  }
}
