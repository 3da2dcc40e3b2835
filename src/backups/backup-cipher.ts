import { createCipheriv, createDecipheriv, DecipherGCM, randomBytes } from 'node:crypto';
import { Transform, TransformCallback } from 'node:stream';

/** What every backup object starts with, before its IV; the GCM tag ends it. */
const MAGIC = Buffer.from('SVCBAK01');
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = MAGIC.length + IV_BYTES;

/** Binds an object to its backup row: an object copied under another backup's name fails to decrypt. */
const aad = (backupId: number) => Buffer.from(`backup:${backupId}`);

/** AES-256-GCM of a stream: header (magic, IV), ciphertext, then the 16-byte tag. */
export function encryptStream(key: Buffer, backupId: number): Transform {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad(backupId));
  let started = false;
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      if (!started) {
        started = true;
        this.push(Buffer.concat([MAGIC, iv]));
      }
      done(null, cipher.update(chunk));
    },
    flush(done: TransformCallback) {
      if (!started) this.push(Buffer.concat([MAGIC, iv]));
      this.push(cipher.final());
      done(null, cipher.getAuthTag());
    },
  });
}

/**
 * The reverse of encryptStream. Plaintext flows before the tag is checked (at the end): the stream
 * errors then if the object was altered, so a consumer must treat its work as void until the end.
 */
export function decryptStream(key: Buffer, backupId: number): Transform {
  let header = Buffer.alloc(0);
  let decipher: DecipherGCM | undefined;
  let held = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      try {
        if (!decipher) {
          header = Buffer.concat([header, chunk]);
          if (header.length < HEADER_BYTES) return done();
          if (!header.subarray(0, MAGIC.length).equals(MAGIC)) throw new CorruptBackup('not a backup object');
          decipher = createDecipheriv('aes-256-gcm', key, header.subarray(MAGIC.length, HEADER_BYTES));
          decipher.setAAD(aad(backupId));
          chunk = header.subarray(HEADER_BYTES);
        }
        const data = Buffer.concat([held, chunk]);
        const cut = Math.max(0, data.length - TAG_BYTES);
        held = data.subarray(cut);
        done(null, cut ? decipher.update(data.subarray(0, cut)) : undefined);
      } catch (err) {
        done(err as Error);
      }
    },
    flush(done: TransformCallback) {
      try {
        if (!decipher || held.length < TAG_BYTES) throw new CorruptBackup('the object is truncated');
        decipher.setAuthTag(held);
        done(null, decipher.final());
      } catch (err) {
        done(err instanceof CorruptBackup ? err : new CorruptBackup('the authentication tag does not match'));
      }
    },
  });
}

export class CorruptBackup extends Error {}
