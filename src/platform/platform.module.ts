import { DynamicModule, Module, Provider } from '@nestjs/common';
import { ClientsController } from './clients.controller';
import { ClientsService } from './clients.service';
import { PlatformBootstrap } from './platform-bootstrap';
import { ProvisioningProcessor } from './provisioning.processor';
import { ProvisioningQueue } from './provisioning.queue';

@Module({})
export class PlatformModule {
  static register(options: { processors: boolean }): DynamicModule {
    const processors: Provider[] = options.processors ? [ProvisioningProcessor] : [];
    return {
      module: PlatformModule,
      global: true,
      controllers: [ClientsController],
      providers: [ProvisioningQueue, ClientsService, PlatformBootstrap, ...processors],
    };
  }
}
