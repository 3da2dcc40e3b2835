import { Injectable, Logger } from '@nestjs/common';
import pLimit from 'p-limit';
import { AppError } from '../common/errors/app-error';
import { paged } from '../common/pagination/pagination';
import { AppConfig } from '../config/app-config';
import { ClientRegistry } from '../tenancy/client-registry';
import { PlatformDatabase } from '../tenancy/platform-database';
import { ClientsRepository } from '../tenancy/clients.repository';
import { clientDatabaseName } from '../tenancy/client-identifier';
import { TenantPools } from '../tenancy/tenant-pools';
import { ClientDatabases, MigrationReport } from '../tenancy/client-databases';
import { toClientView } from './client.view';
import { CreateClientDto, UpdateClientDto } from './dto/client.dto';
import { Client, ClientStatus } from '../tenancy/entities/client.entity';
import { ProvisioningQueue } from './provisioning.queue';
import { CLIENT_MIGRATION_TARGET, ClientMigrationQueue } from './client-migration.queue';
import { MigrationJobs, MigrationJobScope } from './migration-jobs';
import { MigratedVersions } from './migrated-versions';
import { migrationsAfter } from '../database/migration-runner';
import { CLIENT_MIGRATIONS } from '../../migrations/client';
import { DatabaseServersService } from './database-servers.service';

/** Clients whose database exists: they are migrated, and reported by migration status. */
export const MIGRATABLE: ClientStatus[] = ['ACTIVE', 'SUSPENDED'];
/** Client databases migration status reads at the same time (those with no recorded version). */
const STATUS_CONCURRENCY = 16;

@Injectable()
export class ClientsService {
  private readonly logger = new Logger(ClientsService.name);

  constructor(
    private readonly queue: ProvisioningQueue,
    private readonly config: AppConfig,
    private readonly registry: ClientRegistry,
    private readonly databases: ClientDatabases,
    private readonly pools: TenantPools,
    private readonly jobs: MigrationJobs,
    private readonly migrations: ClientMigrationQueue,
    private readonly versions: MigratedVersions,
    private readonly servers: DatabaseServersService,
    private readonly platform: PlatformDatabase,
    private readonly clients: ClientsRepository,
  ) {}

  async create(dto: CreateClientDto) {
    const databaseName = clientDatabaseName(this.config.MULTITENANCY_DB_PREFIX, dto.identifier);
    if (await this.clients.identifierTaken(dto.identifier)) {
      throw AppError.conflict(`Client identifier "${dto.identifier}" is taken`);
    }
    await this.assertDomainsFree(dto.subdomain, dto.customDomain);
    const client = await this.platform.transaction(async (tx) => {
      const server = await this.servers.place(tx, dto.serverId);
      return this.clients.insert(tx, {
        identifier: dto.identifier,
        companyName: (dto.companyName ?? dto.name)!,
        subdomain: dto.subdomain ?? null,
        customDomain: dto.customDomain ?? null,
        contactEmail: dto.contactEmail.toLowerCase(),
        serverId: server.id,
        databaseHost: server.host,
        databasePort: server.port,
        databaseName,
        databaseUsername: databaseName,
        databasePassword: null,
        status: 'PENDING',
        maxUsers: dto.maxUsers ?? 50,
        maxSandboxes: dto.maxSandboxes ?? 3,
      });
    });
    await this.registry.changed();
    return { data: toClientView(client) };
  }

  async list(page: number, pageSize: number, statuses?: ClientStatus[]) {
    const [rows, total] = await this.clients.page(page, pageSize, statuses);
    return paged(rows.map(toClientView), total, page, pageSize);
  }

  async get(id: number) {
    return { data: toClientView(await this.find(id)) };
  }

  async update(id: number, dto: UpdateClientDto) {
    const client = await this.find(id);
    await this.assertDomainsFree(dto.subdomain, dto.customDomain, id);
    const companyName = dto.companyName ?? dto.name;
    if (companyName !== undefined) client.companyName = companyName;
    if (dto.subdomain !== undefined) client.subdomain = dto.subdomain;
    if (dto.customDomain !== undefined) client.customDomain = dto.customDomain;
    if (dto.contactEmail !== undefined) client.contactEmail = dto.contactEmail.toLowerCase();
    if (dto.maxUsers !== undefined) client.maxUsers = dto.maxUsers;
    if (dto.maxSandboxes !== undefined) client.maxSandboxes = dto.maxSandboxes;
    const saved = await this.clients.save(null, client);
    await this.registry.changed();
    return { data: toClientView(saved) };
  }

  async remove(id: number) {
    const client = await this.find(id);
    await this.transition(client, ['PENDING', 'ACTIVE', 'SUSPENDED'], 'DELETED');
    await this.pools.close(client.identifier);
    await this.versions.forget(client.identifier).catch(() => undefined);
    return { data: toClientView(await this.find(id, true)) };
  }

  async provision(id: number) {
    const client = await this.find(id);
    await this.transition(client, ['PENDING'], 'PROVISIONING');
    try {
      await this.queue.enqueue(id);
    } catch (err) {
      // Back to PENDING, or the client would stay PROVISIONING with no job to finish it.
      this.logger.error(
        `Queueing the provisioning of ${client.identifier} failed: ${(err as Error).message}`,
      );
      await this.clients.update(null, id, {
        status: 'PENDING',
        lastError: 'Could not queue the provisioning job',
      });
      await this.registry.changed();
      throw new AppError(503, 'SERVICE_UNAVAILABLE', 'The job queue is unavailable; try again');
    }
    return { data: toClientView(await this.find(id)) };
  }

  async suspend(id: number) {
    const client = await this.find(id);
    await this.transition(client, ['ACTIVE'], 'SUSPENDED');
    await this.pools.close(client.identifier);
    return { data: toClientView(await this.find(id)) };
  }

  async activate(id: number) {
    const client = await this.find(id);
    await this.transition(client, ['SUSPENDED'], 'ACTIVE');
    return { data: toClientView(await this.find(id)) };
  }

  /** Starts a migration job over every provisioned client; its progress is at GET /api/platform/migrations/{jobId}. */
  async migrateAll() {
    const clients = await this.clients.withStatus(MIGRATABLE);
    return this.startJob('all', clients);
  }

  async migrateOne(id: number) {
    const client = await this.find(id);
    if (!MIGRATABLE.includes(client.status)) {
      throw AppError.conflict(`Client is ${client.status}; only provisioned clients can be migrated`);
    }
    return this.startJob('client', [client]);
  }

  async migrationJob(jobId: string) {
    const job = await this.jobs.get(jobId).catch((err: Error) => {
      throw this.queueDown('Reading the migration job', err);
    });
    if (!job) throw AppError.notFound('Migration job');
    return { data: job };
  }

  /**
   * From the versions the migration jobs and start-up checks recorded (MigratedVersions); a client
   * with none (or all of them while Redis is unreachable) costs one cheap query to its database,
   * STATUS_CONCURRENCY clients at a time.
   */
  async migrationStatus() {
    const clients = await this.clients.withStatus(MIGRATABLE);
    const recorded = await this.versions.of(clients.map((c) => c.identifier)).catch((err: Error) => {
      this.logger.warn(`Reading recorded migration versions: ${err.message}`);
      return new Map<string, string | null>();
    });
    const limit = pLimit(STATUS_CONCURRENCY);
    const reports = await Promise.all(
      clients.map((client) =>
        recorded.has(client.identifier)
          ? Promise.resolve(reportOf(recorded.get(client.identifier)!))
          : limit(() => this.askDatabase(client)),
      ),
    );
    const data: Record<string, MigrationReport> = {};
    clients.forEach((client, i) => (data[client.identifier] = reports[i]));
    return {
      data,
      totalClients: reports.length,
      clientsWithPendingMigrations: reports.filter((r) => r.pendingCount > 0).length,
    };
  }

  private async askDatabase(client: Client): Promise<MigrationReport> {
    const report = await this.databases.status(client);
    await this.versions.record(client.identifier, report.currentVersion).catch(() => undefined);
    return report;
  }

  private async startJob(scope: MigrationJobScope, clients: Client[]) {
    const identifiers = clients.map((c) => c.identifier);
    let jobId: string | undefined;
    try {
      jobId = await this.jobs.create(scope, identifiers);
      const id = jobId;
      await this.migrations.enqueue(
        identifiers.map((identifier) => ({ jobId: id, identifier, target: CLIENT_MIGRATION_TARGET })),
      );
    } catch (err) {
      if (jobId) await this.jobs.discard(jobId).catch(() => undefined);
      throw this.queueDown('Starting a migration job', err as Error);
    }
    return { data: { jobId } };
  }

  private queueDown(what: string, err: Error): AppError {
    this.logger.error(`${what} failed: ${err.message}`);
    return new AppError(503, 'SERVICE_UNAVAILABLE', 'The job queue is unavailable; try again', undefined, {
      'Retry-After': '5',
    });
  }

  private async find(id: number, includeDeleted = false): Promise<Client> {
    const client = await this.clients.byId(id);
    if (!client || (client.status === 'DELETED' && !includeDeleted)) throw AppError.notFound('Client');
    return client;
  }

  /** A state change that only applies from the listed states, safe against concurrent calls. */
  private async transition(client: Client, from: ClientStatus[], to: ClientStatus) {
    if (!(await this.clients.transition(client.id, from, to))) {
      throw AppError.conflict(
        `Client is ${client.status}; cannot move to ${to} (allowed from ${from.join(', ')})`,
      );
    }
    await this.registry.changed();
  }

  private async assertDomainsFree(subdomain?: string, customDomain?: string, exceptId?: number) {
    if (customDomain) this.assertNotPlatformHost(customDomain);
    for (const [field, value] of [
      ['subdomain', subdomain],
      ['customDomain', customDomain],
    ] as const) {
      if (!value) continue;
      if (await this.clients.domainTaken(field, value, exceptId))
        throw AppError.conflict(`${field} "${value}" is taken`);
    }
  }

  /**
   * A custom domain may not be the base domain nor a host under it: those route by subdomain (to
   * another client, or to the master database), so the domain would take over someone else's host.
   */
  private assertNotPlatformHost(customDomain: string) {
    const base = this.config.MULTITENANCY_BASE_DOMAIN;
    const domain = customDomain.toLowerCase();
    if (base && (domain === base || domain.endsWith(`.${base}`))) {
      throw AppError.conflict(`customDomain "${customDomain}" is the base domain or a host under it`);
    }
  }
}

function reportOf(currentVersion: string | null): MigrationReport {
  const pendingVersions = migrationsAfter(CLIENT_MIGRATIONS, currentVersion);
  return { currentVersion, pendingCount: pendingVersions.length, pendingVersions };
}
