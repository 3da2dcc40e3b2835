import { Global, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { SecretBox } from '../common/crypto/secret-box';
import { masterDataSourceProvider } from '../database/master-data-source';
import { ClientLinks } from './client-links';
import { ClientRegistry } from './client-registry';
import { PlatformDatabase } from './platform-database';
import { PerClientRunner } from './per-client-runner';
import { SandboxSchemas } from './sandbox-schemas';
import { TenantDataSources } from './tenant-data-sources';
import { TenantDatabase } from './tenant-database';
import { TenantPools } from './tenant-pools';
import { TenantMiddleware } from './tenant.middleware';

@Global()
@Module({
  providers: [
    masterDataSourceProvider,
    SecretBox,
    ClientRegistry,
    TenantDataSources,
    TenantDatabase,
    TenantPools,
    PlatformDatabase,
    SandboxSchemas,
    PerClientRunner,
    TenantMiddleware,
    ClientLinks,
  ],
  // The pool registry and the master DataSource stay inside: features get the facades.
  exports: [
    SecretBox,
    ClientRegistry,
    TenantDatabase,
    TenantPools,
    PlatformDatabase,
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
