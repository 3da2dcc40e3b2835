import { DynamicModule, Global, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { SecretBox } from '../common/crypto/secret-box';
import { masterDataSourceProvider } from '../database/master-data-source';
import { EntityClasses, TENANT_ENTITIES } from '../database/tenant-entities';
import { ClientDatabases } from './client-databases';
import { Client } from './entities/client.entity';
import { DatabaseServer } from './entities/database-server.entity';
import { DatabaseServerRegistry } from './database-server-registry';
import { Sandbox } from './entities/sandbox.entity';
import { UserSandbox } from './entities/user-sandbox.entity';
import { ClientLinks } from './client-links';
import { ClientRegistry } from './client-registry';
import { MigratingClients } from './migrating-clients';
import { PlatformDatabase } from './platform-database';
import { ClientLeasesRepository } from './client-leases.repository';
import { ClientMovesRepository } from './client-moves.repository';
import { ClientsRepository } from './clients.repository';
import { DatabaseServersRepository } from './database-servers.repository';
import { ClientSchemasRepository } from './client-schemas.repository';
import { PlatformMigrationsRepository } from './platform-migrations.repository';
import { ServerAdminRepository } from '../database/server-admin.repository';
import { PerClientRunner } from './per-client-runner';
import { SandboxSchemas } from './sandbox-schemas';
import { TenantDataSources } from './tenant-data-sources';
import { TenantDatabase } from './tenant-database';
import { TenantPools } from './tenant-pools';
import { TenantMiddleware } from './tenant.middleware';

@Global()
@Module({
  providers: [
    SecretBox,
    ClientRegistry,
    MigratingClients,
    TenantDataSources,
    TenantDatabase,
    TenantPools,
    PlatformDatabase,
    ClientsRepository,
    ClientMovesRepository,
    ClientLeasesRepository,
    DatabaseServersRepository,
    ServerAdminRepository,
    ClientSchemasRepository,
    PlatformMigrationsRepository,
    SandboxSchemas,
    PerClientRunner,
    TenantMiddleware,
    ClientLinks,
    ClientDatabases,
    DatabaseServerRegistry,
  ],
  // The pool registry and the master DataSource stay inside: features get the facades.
  exports: [
    SecretBox,
    ClientRegistry,
    MigratingClients,
    TenantDatabase,
    TenantPools,
    PlatformDatabase,
    ClientsRepository,
    ClientMovesRepository,
    ClientLeasesRepository,
    DatabaseServersRepository,
    ServerAdminRepository,
    ClientSchemasRepository,
    PlatformMigrationsRepository,
    SandboxSchemas,
    PerClientRunner,
    ClientLinks,
    ClientDatabases,
    DatabaseServerRegistry,
    TENANT_ENTITIES,
  ],
})
export class TenancyModule implements NestModule {
  /** @param entities every feature's tenant entities, composed at the application root */
  static forRoot(entities: EntityClasses): DynamicModule {
    return {
      module: TenancyModule,
      providers: [
        { provide: TENANT_ENTITIES, useValue: [Sandbox, UserSandbox, ...entities] },
        masterDataSourceProvider([Client, DatabaseServer]),
      ],
    };
  }

  configure(consumer: MiddlewareConsumer) {
    consumer.apply(TenantMiddleware).forRoutes('*');
  }
}
