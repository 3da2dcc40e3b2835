import { DynamicModule, Inject, Module, OnApplicationBootstrap } from '@nestjs/common';
import { settingsProvider } from '../config/config.module';
import { DomainEvents } from './domain-events';
import { EventsSettings } from './events.settings';
import { OutboxMetrics } from './outbox-metrics';
import { OutboxRelay } from './outbox-relay';
import { OutboxSignals } from './outbox-signals';
import { OutboxSweep } from './outbox-sweep';
import { OutboxRepository } from './outbox.repository';

const POLLING = Symbol('EVENT_RELAY_POLLING');

/** The domain-event bus (transactional outbox + relay), available to every module. */
@Module({})
export class EventsModule implements OnApplicationBootstrap {
  constructor(
    private readonly relay: OutboxRelay,
    private readonly sweep: OutboxSweep,
    @Inject(POLLING) private readonly polling: boolean,
  ) {}

  static register(options: { processors: boolean }): DynamicModule {
    return {
      module: EventsModule,
      global: true,
      providers: [
        settingsProvider(EventsSettings),
        { provide: POLLING, useValue: options.processors },
        OutboxRepository,
        OutboxSignals,
        OutboxMetrics,
        OutboxRelay,
        OutboxSweep,
        DomainEvents,
      ],
      exports: [DomainEvents, OutboxRelay, EventsSettings],
    };
  }

  async onApplicationBootstrap() {
    if (!this.polling) return;
    await this.relay.follow();
    this.sweep.start();
  }
}
