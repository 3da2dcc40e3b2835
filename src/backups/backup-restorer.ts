import { Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AuditWriter } from '../audit-trail/audit-writer';
import { SecretBox } from '../common/crypto/secret-box';
import { AuthStateCache } from '../identity';
import { ClientDatabases } from '../tenancy/client-databases';
import { ClientRegistry } from '../tenancy/client-registry';
import { Client } from '../tenancy/entities/client.entity';
import { ClientsRepository } from '../tenancy/clients.repository';
import { SandboxSchemas } from '../tenancy/sandbox-schemas';
import { MASTER_CLIENT } from '../tenancy/tenant-context';
import { TenantDatabase } from '../tenancy/tenant-database';
import { CorruptBackup } from './backup-cipher';
import { BackupMetrics } from './backup-metrics';
import { BackupsRepository } from './backups.repository';
import { BackupVerifier } from './backup-verifier';
import { BackupsSettings } from './backups.settings';
import { PgToolError, restoreDatabase } from './pg-tools';
import {
  ExistsOnServer,
  freshDatabaseName,
  RestoreDatabasesRepository,
} from './restore-databases.repository';
import { RestoreJob, RestoreJobs } from './restore-jobs';

/**
 * Runs restore jobs. Either way the backup goes into a fresh database first; the client is switched
 * to it only once it holds the whole backup, migrated to the code's version, with its events and
 * pending webhook deliveries silenced (they were handed on from the database the backup came from).
 *
 * In place: the client answers 503 CLIENT_RESTORING on every replica from the start (reads too)
 * until its registry entry names the fresh database; then the database it was on is dropped, by
 * name. A failure before the switch drops the fresh database and leaves the client as it was.
 *
 * New client: created PENDING by the request; the job gives it its own login role and password,
 * restores into its database and makes it ACTIVE. A failure leaves it PENDING with the reason.
 */
@Injectable()
export class BackupRestorer {
  private readonly logger = new Logger(BackupRestorer.name);

  constructor(
    private readonly jobs: RestoreJobs,
    private readonly rows: BackupsRepository,
    private readonly verifier: BackupVerifier,
    private readonly clients: ClientsRepository,
    private readonly registry: ClientRegistry,
    private readonly sandboxes: SandboxSchemas,
    private readonly databases: ClientDatabases,
    private readonly restores: RestoreDatabasesRepository,
    private readonly secrets: SecretBox,
    private readonly audit: AuditWriter,
    private readonly db: TenantDatabase,
    private readonly settings: BackupsSettings,
    private readonly metrics: BackupMetrics,
    private readonly authStates: AuthStateCache,
  ) {}

  async run(jobId: string): Promise<void> {
    const job = await this.jobs.get(jobId);
    if (!job || job.status !== 'queued') return; // a stalled job run again: the sweeper finishes it
    const began = Date.now();
    job.status = 'running';
    job.heartbeatAt = Date.now();
    await this.jobs.save(job);
    const beat = setInterval(() => {
      job.heartbeatAt = Date.now();
      if (job.status === 'running') void this.jobs.save(job).catch(() => undefined);
    }, this.settings.BACKUP_HEARTBEAT_MS);
    try {
      if (job.target === 'in-place') await this.inPlace(job);
      else await this.newClient(job);
      job.status = 'done';
      this.metrics.restores.inc({ outcome: 'done', target: job.target });
      this.metrics.restoreSeconds.observe({ target: job.target }, (Date.now() - began) / 1000);
    } catch (err) {
      this.logger.error(`Restore ${job.jobId} of backup ${job.backupId} failed: ${(err as Error).message}`);
      job.status = 'failed';
      job.error = publicReason(err);
      this.metrics.restores.inc({ outcome: 'failed', target: job.target });
    } finally {
      clearInterval(beat);
    }
    job.finishedAt = new Date().toISOString();
    await this.jobs.save(job);
    await this.jobs.release(job);
    await this.record(job).catch((err: Error) =>
      this.logger.error(`Audit of restore ${job.jobId}: ${err.message}`),
    );
  }

  /**
   * Finishes the restores whose worker stopped (no heartbeat for three beats): one that had switched
   * the client drops the former database; one that had not drops its fresh database and serves the
   * client again from the one it was on.
   */
  async failAbandoned(): Promise<number> {
    const silent = 3 * this.settings.BACKUP_HEARTBEAT_MS;
    let finished = 0;
    for (const job of await this.jobs.running()) {
      if (Date.now() - (job.heartbeatAt ?? 0) < silent) continue;
      const client = await this.clients.byId(job.clientId);
      this.logger.warn(`Restore ${job.jobId} was left running by a stopped worker; finishing it`);
      if (job.target === 'new-client') {
        if (client?.status === 'ACTIVE') job.status = 'done';
        else {
          if (client) {
            // Only what the stopped run recorded as its own.
            if (job.created) await this.restores.drop(client, client.databaseName, true);
            await this.clients.update(null, client.id, { lastError: STOPPED });
          }
          job.status = 'failed';
          job.error = STOPPED;
        }
      } else if (client && job.freshDatabase && client.databaseName === job.freshDatabase) {
        if (job.previousDatabase) await this.restores.drop(client, job.previousDatabase);
        job.status = 'done';
      } else {
        if (client && job.freshDatabase) await this.restores.drop(client, job.freshDatabase);
        if (client && job.target === 'in-place') {
          await this.clients.update(null, client.id, { restoringSince: null });
          await this.registry.changed();
        }
        job.status = 'failed';
        job.error = `${STOPPED}; nothing was replaced`;
      }
      job.finishedAt = new Date().toISOString();
      await this.jobs.save(job);
      await this.jobs.release(job);
      this.metrics.restores.inc({ outcome: job.status === 'done' ? 'done' : 'failed', target: job.target });
      finished++;
    }
    return finished;
  }

  private async inPlace(job: RestoreJob) {
    const backup = await this.completedBackup(job);
    let client = await this.client(job.clientId);
    const previous = client.databaseName;
    const fresh = freshDatabaseName(client, randomBytes(3).toString('hex'));
    Object.assign(job, { freshDatabase: fresh, previousDatabase: previous });
    await this.jobs.save(job);
    const marked = await this.clients.markRestoring(client.id);
    if (!marked) throw new RestoreRefused('The client is being moved to another server');
    await this.registry.changed();
    let switched = false;
    try {
      const target = { ...client, databaseName: fresh };
      await this.restores.create(target, fresh);
      await this.fill(target, job);
      client = await this.client(job.clientId);
      if (client.databaseName !== previous) throw new RestoreRefused('The client changed database meanwhile');
      await this.clients.update(null, client.id, { databaseName: fresh, restoringSince: null });
      switched = true;
      await this.registry.changed();
      await this.sandboxes.changed({ identifier: client.identifier, id: client.id, isMaster: false });
      // Users' blocks, roles and token versions are those of the backup now, on every replica.
      await this.authStates.invalidate(client.identifier);
      this.logger.log(`Restored client ${client.identifier} from backup ${backup.id} into ${fresh}`);
    } catch (err) {
      if (!switched) {
        await this.restores
          .drop(client, fresh)
          .catch((e: Error) => this.logger.error(`Dropping ${fresh}: ${e.message}`));
        await this.clients.update(null, client.id, { restoringSince: null });
        await this.registry.changed();
      }
      throw err;
    }
    // Only the database this restore replaced, and only once the client is off it.
    await this.restores.drop(client, previous);
  }

  private async newClient(job: RestoreJob) {
    await this.completedBackup(job);
    const client = await this.client(job.clientId);
    if (client.status !== 'PENDING') throw new RestoreRefused(`The new client is ${client.status}`);
    const password = randomBytes(24).toString('base64url');
    await this.clients.update(null, client.id, { databasePassword: this.secrets.encrypt(password) });
    Object.assign(job, { freshDatabase: client.databaseName });
    await this.jobs.save(job);
    let created = false;
    try {
      await this.restores.create(client, client.databaseName, password, () => (created = true));
      await this.jobs.save(Object.assign(job, { created }));
      await this.fill(client, job);
      await this.clients.update(null, client.id, {
        status: 'ACTIVE',
        provisionedAt: new Date(),
        lastError: null,
      });
      await this.registry.changed();
    } catch (err) {
      if (created) await this.restores.drop(client, client.databaseName, true).catch(() => undefined);
      await this.clients.update(null, client.id, { lastError: publicReason(err) });
      throw err;
    }
  }

  /** Restores the backup into the client's (fresh, empty) database and readies it to be served. */
  private async fill(client: Client, job: RestoreJob) {
    const backup = await this.completedBackup(job);
    await restoreDatabase(await this.databases.adminTarget(client), await this.verifier.open(backup));
    await this.databases.migrate(client);
    await this.databases.grantAll(client);
    await this.restores.silenceOutbox(client);
  }

  private async completedBackup(job: RestoreJob) {
    const backup = await this.rows.get(job.backupId);
    if (!backup || backup.status !== 'COMPLETED') throw new RestoreRefused('The backup is gone');
    return backup;
  }

  private async client(id: number): Promise<Client> {
    const client = await this.clients.byId(id);
    if (!client || client.status === 'DELETED') throw new RestoreRefused('The client is gone');
    return client;
  }

  /** Who restored what, in the master's audit trail. */
  private async record(job: RestoreJob) {
    const master = await this.db.forClient(MASTER_CLIENT);
    await master.transaction((m) =>
      this.audit.record(m, {
        action: job.target === 'in-place' ? 'UPDATE' : 'CREATE',
        entityType: 'Client',
        entityId: job.clientId,
        message: `Restore of backup ${job.backupId} (${job.target}) ${job.status === 'done' ? 'done' : 'failed'}`,
        metadata: {
          jobId: job.jobId,
          backupId: job.backupId,
          target: job.target,
          status: job.status,
          error: job.error,
        },
        userId: job.requestedBy.userId,
        username: job.requestedBy.username,
        ipAddress: null,
        userAgent: null,
        companyId: null,
      }),
    );
  }
}

const STOPPED = 'The worker running the restore stopped before it finished';

class RestoreRefused extends Error {}

function publicReason(err: unknown): string {
  if (err instanceof RestoreRefused || err instanceof ExistsOnServer) return err.message;
  if (err instanceof CorruptBackup) return `The backup cannot be restored: ${err.message}`;
  if (err instanceof PgToolError) return 'Restoring the database failed; see the server log';
  return 'The restore failed; see the server log';
}
