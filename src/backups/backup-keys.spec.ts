import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import { loadConfig } from '../config/app-config';
import { CorruptBackup, decryptStream, encryptStream } from './backup-cipher';
import { BackupKeys, UnknownBackupKey } from './backup-keys';
import { BackupsSettings } from './backups.settings';

const keysOf = (current: string, previous?: string) => {
  const settings = Object.assign(new BackupsSettings(), { BACKUP_PREVIOUS_ENCRYPTION_KEY: previous });
  return new BackupKeys(loadConfig({ ENCRYPTION_KEY: current }), settings);
};

async function seal(key: Buffer, backupId: number, plain: Buffer): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await pipeline(
    Readable.from([plain.subarray(0, 10), plain.subarray(10)]),
    encryptStream(key, backupId),
    async (s) => {
      for await (const c of s) chunks.push(c as Buffer);
    },
  );
  return Buffer.concat(chunks);
}

const open = (key: Buffer, backupId: number, sealed: Buffer) =>
  buffer(Readable.from([sealed]).pipe(decryptStream(key, backupId)));

describe('backup keys and cipher', () => {
  const oldKey = randomBytes(32).toString('hex');
  const newKey = randomBytes(32).toString('hex');
  const plain = randomBytes(100_000);

  it('derives one key per client, and reads backups of a former key once it is listed', async () => {
    const before = keysOf(oldKey);
    const sealed = await seal(before.clientKey(before.currentId, 7), 3, plain);
    expect(before.clientKey(before.currentId, 7).equals(before.clientKey(before.currentId, 8))).toBe(false);

    const rotated = keysOf(newKey, `${randomBytes(32).toString('hex')},${oldKey}`);
    expect(rotated.currentId).not.toBe(before.currentId);
    expect((await open(rotated.clientKey(before.currentId, 7), 3, sealed)).equals(plain)).toBe(true);
    expect(() => keysOf(newKey).clientKey(before.currentId, 7)).toThrow(UnknownBackupKey);
  });

  it('refuses an altered, truncated or renamed object', async () => {
    const keys = keysOf(oldKey);
    const key = keys.clientKey(keys.currentId, 1);
    const sealed = await seal(key, 5, plain);
    const altered = Buffer.from(sealed);
    altered[5000] ^= 1;
    await expect(open(key, 5, altered)).rejects.toThrow(CorruptBackup);
    await expect(open(key, 5, sealed.subarray(0, sealed.length - 1))).rejects.toThrow(CorruptBackup);
    await expect(open(key, 6, sealed)).rejects.toThrow(CorruptBackup);
    await expect(open(keys.clientKey(keys.currentId, 2), 5, sealed)).rejects.toThrow(CorruptBackup);
    expect((await open(key, 5, sealed)).equals(plain)).toBe(true);
  });
});
