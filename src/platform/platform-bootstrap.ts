import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { PasswordHasher } from '../identity';
import { AppConfig } from '../config/app-config';
import { PlatformDatabase } from '../tenancy/platform-database';
import { ClientsRepository } from '../tenancy/clients.repository';
import { DatabaseServerRegistry } from '../tenancy/database-server-registry';
import { roleIdOf, seedDefaultData } from '../identity';
import { MIGRATABLE } from './clients.service';
import { StartupMigrations } from './startup-migrations';
import { BackgroundMigrator } from './background-migrator';
import { FirstAdminsRepository } from './first-admins.repository';

/**
 * Seeds the master tenant and the first SUPER_ADMIN, and starts in the background the master's
 * background migrations and the clients' migrations.
 */
@Injectable()
export class PlatformBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger('Bootstrap');

  constructor(
    private readonly platform: PlatformDatabase,
    private readonly clients: ClientsRepository,
    private readonly firstAdmins: FirstAdminsRepository,
    private readonly config: AppConfig,
    private readonly hasher: PasswordHasher,
    private readonly startup: StartupMigrations,
    private readonly servers: DatabaseServerRegistry,
    private readonly background: BackgroundMigrator,
  ) {}

  async onApplicationBootstrap() {
    await this.servers.registerDefault();
    await this.seedMaster();
    this.background.startMaster();
    if (this.config.MULTITENANCY_DATABASE_ENABLED && this.config.MULTITENANCY_DATABASE_AUTO_MIGRATE) {
      await this.migrateClients();
    }
  }

  private async seedMaster() {
    let printedOnce: { email: string; password: string } | undefined;
    await this.platform.transaction(async (m) => {
      await this.firstAdmins.lockMasterSeed(m);
      const { companyId } = await seedDefaultData(m, 'Platform');
      const existing = await this.firstAdmins.superAdminExists(m);
      if (existing || !this.config.BOOTSTRAP_ADMIN_EMAIL) return;
      const generated = !this.config.BOOTSTRAP_ADMIN_PASSWORD;
      const password = this.config.BOOTSTRAP_ADMIN_PASSWORD ?? randomBytes(12).toString('base64url');
      await this.firstAdmins.insertSuperAdmin(m, {
        email: this.config.BOOTSTRAP_ADMIN_EMAIL.toLowerCase(),
        passwordHash: await this.hasher.hash(password),
        roleId: await roleIdOf(m, 'SUPER_ADMIN'),
        companyId,
      });
      this.logger.warn(
        generated
          ? `Created SUPER_ADMIN ${this.config.BOOTSTRAP_ADMIN_EMAIL} with a generated password, printed once below`
          : `Created SUPER_ADMIN ${this.config.BOOTSTRAP_ADMIN_EMAIL} from BOOTSTRAP_ADMIN_PASSWORD`,
      );
      if (generated) printedOnce = { email: this.config.BOOTSTRAP_ADMIN_EMAIL, password };
    });
    if (printedOnce) printGeneratedPassword(printedOnce.email, printedOnce.password);
  }

  /** Queues every provisioned client for migration in the background; the start does not wait. */
  private async migrateClients() {
    this.startup.begin(await this.clients.withStatus(MIGRATABLE));
  }
}

/**
 * The one secret the process prints: the first SUPER_ADMIN's generated password, once, after the
 * commit that created the account. It goes straight to stdout, past the logger, whose secret masking
 * would hide it; set BOOTSTRAP_ADMIN_PASSWORD to print nothing.
 */
function printGeneratedPassword(email: string, password: string): void {
  process.stdout.write(
    `\nSUPER_ADMIN ${email} generated password (shown once; change it after signing in): ${password}\n\n`,
  );
}
