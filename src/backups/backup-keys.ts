import { Injectable } from '@nestjs/common';
import { createHash, hkdfSync } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { encryptionKeyBytes } from '../config/production-secrets';
import { BackupsSettings } from './backups.settings';

const SALT = 'svc-platform/backups/v1';

/**
 * The keys of backup objects: one per client, derived with HKDF-SHA256 from an ENCRYPTION_KEY
 * (the client's id as info), so no key is stored. A backup records the id of the master key it was
 * made under (a fingerprint, not the key), so backups made before a rotation stay readable as long
 * as their former key is listed in BACKUP_PREVIOUS_ENCRYPTION_KEY.
 */
@Injectable()
export class BackupKeys {
  private readonly masters = new Map<string, Buffer>();
  readonly currentId: string;

  constructor(config: AppConfig, settings: BackupsSettings) {
    this.currentId = this.add(config.ENCRYPTION_KEY);
    for (const former of (settings.BACKUP_PREVIOUS_ENCRYPTION_KEY ?? '').split(',')) {
      if (former.trim()) this.add(former.trim());
    }
  }

  /** The key of one client's backups under the master key `keyId`; throws when that key is not configured. */
  clientKey(keyId: string, clientId: number): Buffer {
    const master = this.masters.get(keyId);
    if (!master) throw new UnknownBackupKey(keyId);
    return Buffer.from(hkdfSync('sha256', master, SALT, `client:${clientId}`, 32));
  }

  private add(value: string): string {
    const master = encryptionKeyBytes(value);
    const id = createHash('sha256')
      .update(Buffer.from(hkdfSync('sha256', master, SALT, 'key-id', 32)))
      .digest('hex')
      .slice(0, 16);
    this.masters.set(id, master);
    return id;
  }
}

export class UnknownBackupKey extends Error {
  constructor(keyId: string) {
    super(`The key ${keyId} of this backup is not configured (BACKUP_PREVIOUS_ENCRYPTION_KEY)`);
  }
}
