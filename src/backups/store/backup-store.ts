import { Readable } from 'node:stream';

/**
 * Where backup objects are kept. `write` consumes the whole stream and makes the object visible
 * under `key` only once the stream ended without error; on any error it leaves nothing behind
 * (and rejects). What a killed process left half-written is removed by `removeLeftovers`.
 */
export interface BackupStore {
  readonly kind: 'local' | 's3';
  write(key: string, body: Readable): Promise<void>;
  /** The object's bytes; throws BackupObjectMissing when there is none. */
  open(key: string): Promise<Readable>;
  /** Removes the object (nothing when it is gone already) and its leftovers. */
  remove(key: string): Promise<void>;
  /** Removes what an interrupted write of `key` left (a temporary file, an unfinished upload). */
  removeLeftovers(key: string): Promise<void>;
}

export const BACKUP_STORE = Symbol('BACKUP_STORE');

export class BackupObjectMissing extends Error {
  constructor(key: string) {
    super(`Backup object ${key} is missing from the store`);
  }
}
