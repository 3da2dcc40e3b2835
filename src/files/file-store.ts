import { Injectable } from '@nestjs/common';
import { createReadStream } from 'node:fs';
import { access, mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { StoresSettings } from '../config/stores.settings';

/** Storage keys are built by the service only: `companies/<id>/<folder>/<hash><ext>`. */
const KEY = /^companies\/\d+(\/[A-Za-z0-9_-]{1,64}){0,5}\/[A-Za-z0-9_-]{1,64}\.[a-z0-9]{1,5}$/;

/**
 * Where uploaded files live: a local folder (STORAGE_DIR). Keys are checked against the one
 * pattern the service builds, and resolved paths must stay inside the folder, so no name a caller
 * sends can reach outside it.
 */
@Injectable()
export class FileStore {
  readonly provider = 'local';
  readonly root: string;

  constructor(stores: StoresSettings) {
    this.root = resolve(stores.STORAGE_DIR);
  }

  /** Folder for uploads in progress (same file system, so `put` is a rename). */
  get tempDir(): string {
    return join(this.root, '.incoming');
  }

  private path(key: string): string {
    if (!KEY.test(key)) throw new Error(`Invalid storage key: ${key}`);
    const path = resolve(this.root, key);
    if (!path.startsWith(this.root + sep)) throw new Error(`Storage key outside the store: ${key}`);
    return path;
  }

  async exists(key: string): Promise<boolean> {
    return access(this.path(key)).then(
      () => true,
      () => false,
    );
  }

  /** Moves a finished temporary file to its key; content-addressed, so an existing key is kept. */
  async put(key: string, tempPath: string): Promise<void> {
    const path = this.path(key);
    if (await this.exists(key)) return void (await rm(tempPath, { force: true }));
    await mkdir(dirname(path), { recursive: true });
    await rename(tempPath, path);
  }

  open(key: string): Readable {
    return createReadStream(this.path(key));
  }

  async remove(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }
}
