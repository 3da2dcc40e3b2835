import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AuthSettings } from '../identity';
import { PasswordResetService } from '../identity';
import { SecretBox } from '../common/crypto/secret-box';
import { createDataSource, withAdminConnection } from '../database/data-source-factory';
import { masterDirectTarget } from '../database/pooling';
import { EntityClasses, TENANT_ENTITIES } from '../database/tenant-entities';
import { MailService } from '../mail/mail.service';
import { ClientLinks } from '../tenancy/client-links';
import { ClientRegistry } from '../tenancy/client-registry';
import { ClientsRepository } from '../tenancy/clients.repository';
import { ServerAdminRepository } from '../database/server-admin.repository';
import { FirstAdminsRepository } from './first-admins.repository';
import { roleIdOf, seedDefaultData } from '../identity';
import { AppConfig } from '../config/app-config';
import { ClientDatabases } from '../tenancy/client-databases';
import { Client } from '../tenancy/entities/client.entity';
import { ProvisioningQueue } from './provisioning.queue';
import { BackgroundMigrator } from './background-migrator';
import { PlatformSettings } from './platform.settings';
import { publicFailure } from './public-failure';

const PROVISIONING_LOCK = 7243003;

/**
 * Creates the client's database and login role, migrates it, seeds roles and a company, creates the
 * first ADMIN (the contact e-mail) and mails them a password-setup link. Every step is idempotent:
 * a failed run leaves the client PENDING with lastError, and provisioning again picks up from there.
 */
@Injectable()
export class ProvisioningProcessor implements OnModuleInit {
  private readonly logger = new Logger(ProvisioningProcessor.name);

  constructor(
    private readonly clients: ClientsRepository,
    private readonly serverAdmin: ServerAdminRepository,
    private readonly firstAdmins: FirstAdminsRepository,
    private readonly queue: ProvisioningQueue,
    private readonly config: AppConfig,
    private readonly secrets: SecretBox,
    private readonly databases: ClientDatabases,
    private readonly registry: ClientRegistry,
    private readonly resets: PasswordResetService,
    private readonly mail: MailService,
    private readonly links: ClientLinks,
    private readonly authSettings: AuthSettings,
    private readonly settings: PlatformSettings,
    private readonly background: BackgroundMigrator,
    @Inject(TENANT_ENTITIES) private readonly entities: EntityClasses,
  ) {}

  onModuleInit() {
    this.queue.process(this.settings.PROVISIONING_CONCURRENCY, ({ clientId }) => this.claimed(clientId));
  }

  /**
   * Runs one client's provisioning holding its session advisory lock on the master database, on a
   * connection of its own: a second run of the same client (a stalled job run again while the first
   * still works, another worker) finds the lock taken and leaves the work to the first.
   */
  private claimed(clientId: number) {
    return withAdminConnection(masterDirectTarget(this.config), async (pg) => {
      if (!(await this.serverAdmin.tryLockSession(pg, PROVISIONING_LOCK, clientId))) {
        this.logger.warn(`Provisioning of client ${clientId} is already running; this run leaves it`);
        return;
      }
      await this.run(clientId); // the lock ends with the connection
    });
  }

  private async run(clientId: number) {
    const client = await this.clients.byId(clientId);
    if (!client || client.status !== 'PROVISIONING') return;
    try {
      let password: string;
      if (client.databasePassword) {
        password = this.secrets.decrypt(client.databasePassword);
      } else {
        password = randomBytes(24).toString('base64url');
        client.databasePassword = this.secrets.encrypt(password);
        await this.clients.update(null, client.id, { databasePassword: client.databasePassword });
      }
      await this.databases.create(client, password);
      const setup = await this.seed(client);
      await this.clients.update(null, client.id, {
        status: 'ACTIVE',
        provisionedAt: new Date(),
        lastError: null,
      });
      await this.registry.changed();
      if (setup) await this.sendSetupMail(client, setup.email, setup.code);
      this.logger.log(`Provisioned client ${client.identifier}`);
      this.background.start(client); // a new database: each one records itself done in one batch
    } catch (err) {
      this.logger.error(`Provisioning ${client.identifier} failed: ${(err as Error).message}`);
      await this.clients.update(null, client.id, {
        status: 'PENDING',
        lastError: publicFailure(err),
      });
      await this.registry.changed();
    }
  }

  /** Seeds defaults and the first ADMIN; returns the setup code when that user was created now. */
  private async seed(client: Client): Promise<{ email: string; code: string } | null> {
    const dataSource = createDataSource(await this.databases.adminTarget(client), {
      entities: this.entities,
      poolMax: 1,
      applicationName: 'svc-platform:provisioning',
    });
    await dataSource.initialize();
    try {
      return await dataSource.transaction(async (m) => {
        const { companyId } = await seedDefaultData(m, client.companyName);
        const email = client.contactEmail!;
        if ((await this.firstAdmins.userIdByEmail(m, email)) !== null) return null;
        const userId = await this.firstAdmins.insertConfirmedUser(
          m,
          email,
          await roleIdOf(m, 'ADMIN'),
          companyId,
        );
        return { email, code: await this.resets.issueCode(m, userId) };
      });
    } finally {
      await dataSource.destroy();
    }
  }

  private async sendSetupMail(client: Client, email: string, code: string) {
    const tenant = { identifier: client.identifier, id: client.id, isMaster: false };
    const link = this.links.link(tenant, '/reset-password', { code });
    await this.mail.send({
      to: email,
      subject: `Your ${client.companyName} account is ready`,
      text: `An administrator account was created for you.\n\nSet your password here (valid ${this.authSettings.PASSWORD_RESET_TTL_MINUTES} minutes): ${link}\n\nClient: ${client.identifier}`,
    });
  }
}
