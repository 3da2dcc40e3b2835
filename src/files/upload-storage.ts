import type { Request } from 'express';
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { StorageEngine } from 'multer';
import { detectType, DetectedType } from './file-type';

const HEAD_BYTES = 4100;

/** What multer hands on for each part: the temporary file, its hash and the type read from its bytes. */
export interface ReceivedFile {
  originalname: string;
  path: string;
  size: number;
  hash: string;
  type: DetectedType;
}

/**
 * A multer storage engine that streams each part to a temporary file while hashing it and keeping
 * its first bytes for type detection; nothing is held in memory beyond those bytes.
 */
export function hashingStorage(tempDir: string): StorageEngine {
  return {
    _handleFile(_req: Request, file, cb) {
      mkdirSync(tempDir, { recursive: true });
      const path = join(tempDir, randomUUID());
      const hash = createHash('sha256');
      const head: Buffer[] = [];
      let headLength = 0;
      let size = 0;
      const out = createWriteStream(path);
      file.stream.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        size += chunk.length;
        if (headLength < HEAD_BYTES) {
          head.push(chunk);
          headLength += chunk.length;
        }
      });
      file.stream.pipe(out);
      const fail = (err: Error) => {
        out.destroy();
        void rm(path, { force: true });
        cb(err);
      };
      file.stream.on('error', fail);
      out.on('error', fail);
      out.on('finish', () => {
        const type = detectType(Buffer.concat(head).subarray(0, HEAD_BYTES));
        const digest = hash.digest('base64url');
        cb(null, { path, size, hash: digest, type } as Partial<Express.Multer.File>);
      });
    },
    _removeFile(_req: Request, file: Express.Multer.File, cb) {
      rm(file.path, { force: true }).then(() => cb(null), cb);
    },
  };
}
