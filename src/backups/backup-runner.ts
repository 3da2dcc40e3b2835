import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { pipeline, Transform } from 'node:stream';
import { ClientsRepository } from '../tenancy/clients.repository';
import { ClientDatabases } from '../tenancy/client-databases';
import { encryptStream } from './backup-cipher';
import { BackupKeys } from './backup-keys';
import { BackupMetrics } from './backup-metrics';
import { BackupsRepository } from './backups.repository';
import { BackupsSettings } from './backups.settings';
import { dumpDatabase, PgToolError } from './pg-tools';
import { BACKUP_STORE, BackupStore } from './store/backup-store';

/** Backs up a client whose database exists. */
const BACKED_UP = ['ACTIVE', 'SUSPENDED'];

/**
 * Runs one backup: pg_dump of the client's whole database (one snapshot) → AES-256-GCM under the
 * client's key → SHA-256 and byte count → the backup store, streamed end to end. The row turns
 * COMPLETED only after the store has committed the object; a failure removes what was written.
 */
@Injectable()
export class BackupRunner {
  private readonly logger = new Logger(BackupRunner.name);

  constructor(
    private readonly rows: BackupsRepository,
    @Inject(BACKUP_STORE) private readonly store: BackupStore,
    private readonly keys: BackupKeys,
    private readonly clients: ClientsRepository,
    private readonly databases: ClientDatabases,
    private readonly settings: BackupsSettings,
    private readonly metrics: BackupMetrics,
  ) {}

  async run(backupId: number): Promise<void> {
    const backup = await this.rows.claim(backupId);
    if (!backup) return; // run already (a stalled job run again), or deleted
    const began = Date.now();
    const beat = setInterval(
      () => void this.rows.heartbeat(backup.id).catch(() => undefined),
      this.settings.BACKUP_HEARTBEAT_MS,
    );
    try {
      const client = await this.clients.byId(backup.clientId);
      if (!client || !BACKED_UP.includes(client.status))
        throw new BackupRefused('The client is not provisioned');
      const hash = createHash('sha256');
      let size = 0;
      const tap = new Transform({
        transform(chunk: Buffer, _enc, done) {
          hash.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      });
      const body = pipeline(
        dumpDatabase(await this.databases.adminTarget(client)),
        encryptStream(this.keys.clientKey(backup.keyId, client.id), backup.id),
        tap,
        () => undefined,
      );
      await this.store.write(backup.objectKey, body);
      const sha256 = hash.digest('hex');
      if (!(await this.rows.complete(backup.id, size, sha256))) {
        // Deleted, or marked failed as abandoned, while it ran: the object must not outlive its row.
        await this.store.remove(backup.objectKey);
        return;
      }
      this.metrics.backups.inc({ outcome: 'completed' });
      this.metrics.backupBytes.inc(size);
      this.metrics.backupSeconds.observe({ outcome: 'completed' }, (Date.now() - began) / 1000);
      this.logger.log(
        `Backup ${backup.id} of client ${client.identifier}: ${size} bytes in ${Date.now() - began} ms`,
      );
    } catch (err) {
      this.logger.error(`Backup ${backup.id} of client ${backup.clientId} failed: ${(err as Error).message}`);
      await this.store.removeLeftovers(backup.objectKey).catch(() => undefined);
      await this.rows.fail(backup.id, publicReason(err));
      this.metrics.backups.inc({ outcome: 'failed' });
      this.metrics.backupSeconds.observe({ outcome: 'failed' }, (Date.now() - began) / 1000);
    } finally {
      clearInterval(beat);
    }
  }

  /**
   * Marks FAILED the backups left RUNNING by a worker that stopped (no heartbeat for three beats)
   * and removes what they had written.
   */
  async failAbandoned(): Promise<number> {
    const abandoned = await this.rows.failAbandoned(3 * this.settings.BACKUP_HEARTBEAT_MS);
    for (const backup of abandoned) {
      this.logger.warn(`Backup ${backup.id} was left running by a stopped worker; marked failed`);
      await this.store.removeLeftovers(backup.objectKey).catch((err: Error) => {
        this.logger.error(`Removing what backup ${backup.id} left: ${err.message}`);
      });
      this.metrics.backups.inc({ outcome: 'failed' });
    }
    return abandoned.length;
  }
}

class BackupRefused extends Error {}

function publicReason(err: unknown): string {
  if (err instanceof BackupRefused) return err.message;
  if (err instanceof PgToolError) return 'Dumping the database failed; see the server log';
  return 'Writing the backup failed; see the server log';
}
