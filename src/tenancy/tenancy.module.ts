import { Global, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { SecretBox } from '../common/crypto/secret-box';
import { masterDataSourceProvider, MASTER_DATA_SOURCE } from '../database/master-data-source';
import { ClientLinks } from './client-links';
import { ClientRegistry } from './client-registry';
import { PerClientRunner } from './per-client-runner';
import { SandboxSchemas } from './sandbox-schemas';
import { TenantDataSources } from './tenant-data-sources';
import { TenantDatabase } from './tenant-database';
import { TenantMiddleware } from './tenant.middleware';

@Global()
@Module({
  providers: [
    masterDataSourceProvider,
    SecretBox,
    ClientRegistry,
    TenantDataSources,
    TenantDatabase,
    SandboxSchemas,
    PerClientRunner,
    TenantMiddleware,
    ClientLinks,
  ],
  exports: [
    MASTER_DATA_SOURCE,
    SecretBox,
    ClientRegistry,
    TenantDataSources,
    TenantDatabase,
    SandboxSchemas,
    PerClientRunner,
    ClientLinks,
  ],
})
export class TenancyModule implements NestModule {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(TenantMiddleware).forRoutes('*');
  }
}
