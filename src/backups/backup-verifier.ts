import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream';
import { AppError } from '../common/errors/app-error';
import { CorruptBackup, decryptStream } from './backup-cipher';
import { BackupKeys, UnknownBackupKey } from './backup-keys';
import { BackupRow } from './backups.repository';
import { BACKUP_STORE, BackupObjectMissing, BackupStore } from './store/backup-store';
import { checkArchive, PgToolError } from './pg-tools';

/**
 * Reads a backup back: the stored bytes are hashed on the way (the stream errors at its end unless
 * the SHA-256 is the recorded one), then decrypted (the GCM tag checked at the end).
 */
@Injectable()
export class BackupVerifier {
  constructor(
    @Inject(BACKUP_STORE) private readonly store: BackupStore,
    private readonly keys: BackupKeys,
  ) {}

  /** The decrypted archive of a COMPLETED backup; it errors with CorruptBackup if anything does not match. */
  async open(backup: BackupRow): Promise<Readable> {
    const key = this.keys.clientKey(backup.keyId, backup.clientId);
    const stored = await this.store.open(backup.objectKey);
    const hash = createHash('sha256');
    const checked = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        done(null, chunk);
      },
      flush(done) {
        const sha256 = hash.digest('hex');
        done(sha256 === backup.sha256 ? null : new CorruptBackup('its SHA-256 is not the recorded one'));
      },
    });
    return pipeline(stored, checked, decryptStream(key, backup.id), () => undefined);
  }

  /**
   * Reads the whole backup (hash, decryption, `pg_restore --list`) and answers 422 BACKUP_CORRUPT
   * when any check fails; nothing is written anywhere.
   */
  async check(backup: BackupRow): Promise<void> {
    try {
      await checkArchive(await this.open(backup));
    } catch (err) {
      if (
        err instanceof CorruptBackup ||
        err instanceof PgToolError ||
        err instanceof BackupObjectMissing ||
        err instanceof UnknownBackupKey
      ) {
        throw corrupt(err);
      }
      throw err;
    }
  }
}

export function corrupt(err: Error): AppError {
  const why =
    err instanceof CorruptBackup
      ? err.message
      : err instanceof PgToolError
        ? 'it is no readable archive'
        : err.message;
  return new AppError(422, 'BACKUP_CORRUPT', `The backup cannot be restored: ${why}`);
}
