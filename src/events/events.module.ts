import { DynamicModule, Inject, Module, OnApplicationBootstrap } from '@nestjs/common';
import { settingsProvider } from '../config/config.module';
import { DomainEvents } from './domain-events';
import { EventsSettings } from './events.settings';
import { OutboxRelay } from './outbox-relay';

const POLLING = Symbol('EVENT_RELAY_POLLING');

/** The domain-event bus (transactional outbox + relay), available to every module. */
@Module({})
export class EventsModule implements OnApplicationBootstrap {
  constructor(
    private readonly relay: OutboxRelay,
    @Inject(POLLING) private readonly polling: boolean,
  ) {}

  static register(options: { processors: boolean }): DynamicModule {
    return {
      module: EventsModule,
      global: true,
      providers: [
        settingsProvider(EventsSettings),
        { provide: POLLING, useValue: options.processors },
        OutboxRelay,
        DomainEvents,
      ],
      exports: [DomainEvents, OutboxRelay, EventsSettings],
    };
  }

  onApplicationBootstrap() {
    if (this.polling) this.relay.startPolling();
  }
}
