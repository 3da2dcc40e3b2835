import { DynamicModule, Module, Provider } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { settingsProvider } from '../config/config.module';
import { OutboundModule } from '../outbound/outbound.module';
import { AiChatService } from './ai-chat.service';
import { AiMetrics } from './ai-metrics';
import { AiProviders } from './ai-providers';
import { AiStatsController } from './ai-stats.controller';
import { AiStatsService } from './ai-stats.service';
import { AiController } from './ai.controller';
import { AiSettings } from './ai.settings';
import { EXCHANGE_STORE } from './log/exchange';
import { ExchangeProcessor } from './log/exchange.processor';
import { ExchangeQueue } from './log/exchange-queue';
import { AiExchangesRepository } from './log/ai-exchanges.repository';
import { ExchangeLog } from './log/exchange-log';
import { InfluxExchangeBackend } from './log/influx-exchange-backend';
import { PostgresExchangeBackend } from './log/postgres-exchange-backend';

/** AI chat gateway. The exchange-log writer runs only where queue processors are enabled. */
@Module({})
export class AiModule {
  static register(options: { processors: boolean }): DynamicModule {
    const processors: Provider[] = options.processors ? [ExchangeProcessor] : [];
    return {
      module: AiModule,
      imports: [OutboundModule],
      controllers: [AiStatsController, AiController],
      providers: [
        settingsProvider(AiSettings),
        AiProviders,
        AiMetrics,
        ExchangeQueue,
        AiExchangesRepository,
        PostgresExchangeBackend,
        {
          provide: EXCHANGE_STORE,
          inject: [AiSettings, ModuleRef, PostgresExchangeBackend],
          useFactory: async (settings: AiSettings, refs: ModuleRef, postgres: PostgresExchangeBackend) =>
            new ExchangeLog(
              settings.AI_LOG_STORE === 'influxdb' ? await refs.create(InfluxExchangeBackend) : postgres,
            ),
        },
        AiChatService,
        AiStatsService,
        ...processors,
      ],
    };
  }
}
