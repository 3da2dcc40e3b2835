import { Inject, Injectable, Logger } from '@nestjs/common';
import { Readable } from 'node:stream';
import type { Principal } from '../access/principal';
import { AppError } from '../common/errors/app-error';
import { paged } from '../common/pagination/pagination';
import { AppConfig } from '../config/app-config';
import { ClientRegistry } from '../tenancy/client-registry';
import { Client } from '../tenancy/entities/client.entity';
import { ClientsRepository } from '../tenancy/clients.repository';
import { clientDatabaseName } from '../tenancy/client-identifier';
import { BackupKeys } from './backup-keys';
import { BackupMetrics } from './backup-metrics';
import { BackupQueue, RestoreQueue } from './backup-queues';
import { BackupRow, BackupsRepository, toBackupView } from './backups.repository';
import { BackupVerifier } from './backup-verifier';
import { RestoreBackupDto } from './dto/backup.dto';
import { RestoreJobs, restoreView } from './restore-jobs';
import { BACKUP_STORE, BackupStore } from './store/backup-store';

/** Clients whose database exists, so they can be backed up and restored in place. */
const PROVISIONED = ['ACTIVE', 'SUSPENDED'];

/** Starts backups and restores, lists, shows, deletes and hands over backups. */
@Injectable()
export class BackupsService {
  private readonly logger = new Logger(BackupsService.name);

  constructor(
    private readonly rows: BackupsRepository,
    private readonly queue: BackupQueue,
    private readonly restoreQueue: RestoreQueue,
    private readonly jobs: RestoreJobs,
    private readonly keys: BackupKeys,
    private readonly verifier: BackupVerifier,
    private readonly clients: ClientsRepository,
    private readonly registry: ClientRegistry,
    private readonly config: AppConfig,
    private readonly metrics: BackupMetrics,
    @Inject(BACKUP_STORE) private readonly store: BackupStore,
  ) {}

  async start(clientId: number) {
    const client = await this.provisioned(clientId);
    const backup = await this.rows.create(client.id, 'MANUAL', this.keys.currentId);
    await this.queued(backup, () => this.queue.enqueue({ backupId: backup.id }));
    return { data: { backupId: backup.id, jobId: this.queue.jobIdOf(backup.id) } };
  }

  /** Queues a backup of the client (the scheduler); answers its id. */
  async schedule(clientId: number, delayMs: number): Promise<number> {
    const backup = await this.rows.create(clientId, 'SCHEDULED', this.keys.currentId);
    await this.queued(backup, () => this.queue.enqueue({ backupId: backup.id }, delayMs));
    return backup.id;
  }

  async list(clientId: number, page: number, pageSize: number) {
    await this.client(clientId);
    const [rows, total] = await this.rows.list(clientId, page, pageSize);
    return paged(rows.map(toBackupView), total, page, pageSize);
  }

  async get(id: number) {
    return { data: toBackupView(await this.backup(id)) };
  }

  async remove(id: number): Promise<void> {
    const backup = await this.rows.remove(id);
    if (!backup) throw AppError.notFound('Backup');
    await this.store.remove(backup.objectKey).catch((err: Error) => {
      this.logger.error(`Removing the object of backup ${id}: ${err.message}`);
    });
  }

  /** The decrypted archive (pg_restore custom format) of a COMPLETED backup. */
  async download(id: number): Promise<{ name: string; stream: Readable }> {
    const backup = await this.completed(id);
    const client = await this.clients.byId(backup.clientId);
    const stamp = (backup.finishedAt ?? '').replace(/[-:]/g, '').replace(/\..*$/, 'Z');
    const name = `${client?.identifier ?? `client-${backup.clientId}`}-backup-${backup.id}-${stamp}.dump`;
    return { name, stream: await this.verifier.open(backup) };
  }

  /**
   * Checks the whole backup first (422 BACKUP_CORRUPT, nothing changed), then queues the restore.
   * A new client is created PENDING at once (409 when its identifier or subdomain is taken) on the
   * server of the backup's client.
   */
  async restore(id: number, dto: RestoreBackupDto, principal: Principal) {
    const backup = await this.completed(id);
    const source = await this.client(backup.clientId);
    if (dto.target === 'in-place' && !PROVISIONED.includes(source.status)) {
      throw AppError.conflict(
        `Client is ${source.status}; only provisioned clients can be restored in place`,
      );
    }
    if (dto.target === 'in-place' && source.movingToServerId) {
      throw AppError.conflict('The client is being moved to another server');
    }
    if (dto.target === 'new-client') await this.assertFree(dto);
    try {
      await this.verifier.check(backup);
    } catch (err) {
      if (err instanceof AppError && err.code === 'BACKUP_CORRUPT') {
        this.metrics.restores.inc({ outcome: 'corrupt', target: dto.target });
      }
      throw err;
    }
    const clientId = dto.target === 'in-place' ? source.id : (await this.createClient(source, dto)).id;
    const requestedBy = { userId: principal.userId, username: principal.username ?? principal.email };
    const job = await this.unavailableOnFailure(() =>
      this.jobs.create({ backupId: backup.id, clientId, target: dto.target, requestedBy }),
    );
    if (!job) throw AppError.conflict('A restore of this client is under way');
    await this.unavailableOnFailure(async () => {
      try {
        await this.restoreQueue.enqueue({ jobId: job.jobId });
      } catch (err) {
        await this.jobs.release(job).catch(() => undefined);
        throw err;
      }
    });
    return { data: { jobId: job.jobId } };
  }

  async restoreJob(jobId: string) {
    const job = await this.unavailableOnFailure(() => this.jobs.get(jobId));
    if (!job) throw AppError.notFound('Restore job');
    return { data: restoreView(job) };
  }

  private async queued(backup: BackupRow, enqueue: () => Promise<void>) {
    try {
      await enqueue();
    } catch (err) {
      this.logger.error(`Queueing backup ${backup.id}: ${(err as Error).message}`);
      await this.rows.fail(backup.id, 'Could not queue the backup job');
      throw unavailable();
    }
  }

  private async createClient(source: Client, dto: RestoreBackupDto): Promise<Client> {
    const identifier = dto.identifier!;
    const databaseName = clientDatabaseName(this.config.MULTITENANCY_DB_PREFIX, identifier);
    const client = await this.clients.insert(null, {
      identifier,
      companyName: dto.name!,
      subdomain: dto.subdomain ?? null,
      customDomain: null,
      contactEmail: dto.contactEmail!.toLowerCase(),
      serverId: source.serverId,
      databaseHost: source.databaseHost,
      databasePort: source.databasePort,
      databaseName,
      databaseUsername: databaseName,
      databasePassword: null,
      status: 'PENDING',
      maxUsers: source.maxUsers,
      maxSandboxes: source.maxSandboxes,
    });
    await this.registry.changed();
    return client;
  }

  private async assertFree(dto: RestoreBackupDto) {
    if (await this.clients.identifierTaken(dto.identifier!)) {
      throw AppError.conflict(`Client identifier "${dto.identifier}" is taken`);
    }
    if (!dto.subdomain) return;
    if (await this.clients.domainTaken('subdomain', dto.subdomain))
      throw AppError.conflict(`subdomain "${dto.subdomain}" is taken`);
  }

  private async client(id: number): Promise<Client> {
    const client = await this.clients.byId(id);
    if (!client || client.status === 'DELETED') throw AppError.notFound('Client');
    return client;
  }

  private async provisioned(id: number): Promise<Client> {
    const client = await this.client(id);
    if (!PROVISIONED.includes(client.status)) {
      throw AppError.conflict(`Client is ${client.status}; only provisioned clients can be backed up`);
    }
    return client;
  }

  private async backup(id: number): Promise<BackupRow> {
    const backup = await this.rows.get(id);
    if (!backup) throw AppError.notFound('Backup');
    return backup;
  }

  private async completed(id: number): Promise<BackupRow> {
    const backup = await this.backup(id);
    if (backup.status !== 'COMPLETED') throw AppError.conflict(`The backup is ${backup.status}`);
    return backup;
  }

  private async unavailableOnFailure<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      this.logger.error(`Restore jobs: ${(err as Error).message}`);
      throw unavailable();
    }
  }
}

function unavailable() {
  return new AppError(503, 'SERVICE_UNAVAILABLE', 'The job queue is unavailable; try again', undefined, {
    'Retry-After': '5',
  });
}
