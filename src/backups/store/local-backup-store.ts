import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BackupObjectMissing, BackupStore } from './backup-store';

const PARTIAL = '.partial';

/** Backup objects as files under BACKUP_DIR, written to `<name>.partial` and renamed when complete. */
export class LocalBackupStore implements BackupStore {
  readonly kind = 'local';
  private readonly root: string;

  constructor(dir: string) {
    this.root = resolve(dir);
  }

  async write(key: string, body: Readable): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    try {
      await pipeline(body, createWriteStream(path + PARTIAL));
      const file = await open(path + PARTIAL, 'r');
      await file.sync().finally(() => file.close());
      await rename(path + PARTIAL, path);
    } catch (err) {
      await rm(path + PARTIAL, { force: true });
      throw err;
    }
  }

  async open(key: string): Promise<Readable> {
    const path = this.path(key);
    await stat(path).catch(() => {
      throw new BackupObjectMissing(key);
    });
    return createReadStream(path);
  }

  async remove(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
    await this.removeLeftovers(key);
  }

  async removeLeftovers(key: string): Promise<void> {
    await rm(this.path(key) + PARTIAL, { force: true });
  }

  private path(key: string): string {
    const path = resolve(join(this.root, key));
    if (!path.startsWith(this.root + '/')) throw new Error(`Backup key ${key} leaves BACKUP_DIR`);
    return path;
  }
}
