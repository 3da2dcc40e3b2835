import { BullModule } from '@nestjs/bull';
import { DynamicModule, Module, Provider } from '@nestjs/common';
import { ClientDatabases } from './client-databases.service';
import { ClientsController } from './clients.controller';
import { ClientsService } from './clients.service';
import { PlatformBootstrap } from './platform-bootstrap';
import { ProvisioningProcessor } from './provisioning.processor';
import { PROVISIONING_QUEUE } from './provisioning.queue';

@Module({})
export class PlatformModule {
  static register(options: { processors: boolean }): DynamicModule {
    const processors: Provider[] = options.processors ? [ProvisioningProcessor] : [];
    return {
      module: PlatformModule,
      global: true,
      imports: [BullModule.registerQueue({ name: PROVISIONING_QUEUE })],
      controllers: [ClientsController],
      providers: [ClientDatabases, ClientsService, PlatformBootstrap, ...processors],
      exports: [ClientDatabases],
    };
  }
}
