import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { createReadStream } from 'node:fs';
import { access, mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { StoresSettings } from '../config/stores.settings';
import { FilesSettings } from './files.settings';

/** Storage keys are built by the service only: `companies/<id>/<folder>/<hash><ext>`. */
const KEY = /^companies\/\d+(\/[A-Za-z0-9_-]{1,64}){0,5}\/[A-Za-z0-9_-]{1,64}\.[a-z0-9]{1,5}$/;

function checkKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`Invalid storage key: ${key}`);
  return key;
}

/** Where uploaded files live, by content-addressed key. */
interface StoreBackend {
  readonly provider: 'local' | 's3';
  exists(key: string): Promise<boolean>;
  /** Moves a finished temporary file to its key. */
  put(key: string, tempPath: string): Promise<void>;
  open(key: string): Promise<Readable>;
  remove(key: string): Promise<void>;
}

/** The local folder STORAGE_DIR; resolved paths must stay inside it. */
class LocalBackend implements StoreBackend {
  readonly provider = 'local';

  constructor(private readonly root: string) {}

  private path(key: string): string {
    const path = resolve(this.root, checkKey(key));
    if (!path.startsWith(this.root + sep)) throw new Error(`Storage key outside the store: ${key}`);
    return path;
  }

  exists(key: string): Promise<boolean> {
    return access(this.path(key)).then(
      () => true,
      () => false,
    );
  }

  async put(key: string, tempPath: string): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    await rename(tempPath, path);
  }

  async open(key: string): Promise<Readable> {
    const stream = createReadStream(this.path(key));
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    return stream;
  }

  async remove(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }
}

/** An S3-compatible bucket (S3_ENDPOINT, S3_BUCKET, ...): the key is the object key. */
class S3Backend implements StoreBackend {
  readonly provider = 's3';
  readonly client: S3Client;

  constructor(
    stores: StoresSettings,
    forcePathStyle: boolean,
    private readonly bucket: string,
  ) {
    this.client = new S3Client({
      endpoint: stores.S3_ENDPOINT,
      region: stores.S3_REGION ?? 'us-east-1',
      forcePathStyle,
      // Plain signed uploads: S3-compatible servers do not all read the newer checksum trailers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      credentials:
        stores.S3_ACCESS_KEY_ID && stores.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: stores.S3_ACCESS_KEY_ID, secretAccessKey: stores.S3_SECRET_ACCESS_KEY }
          : undefined,
    });
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
      return true;
    } catch (err) {
      if (
        err instanceof NotFound ||
        (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404
      ) {
        return false;
      }
      throw err;
    }
  }

  async put(key: string, tempPath: string): Promise<void> {
    const { size } = await stat(tempPath);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: checkKey(key),
        Body: createReadStream(tempPath),
        ContentLength: size,
      }),
    );
    await rm(tempPath, { force: true });
  }

  async open(key: string): Promise<Readable> {
    const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
    return res.Body as Readable;
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
  }
}

/**
 * Uploaded files: in the local folder STORAGE_DIR by default, in an S3-compatible bucket when
 * S3_ENDPOINT is set. Keys are content-addressed, so a key already present is kept, not rewritten.
 * Uploads in progress always go to `STORAGE_DIR/.incoming` first.
 */
@Injectable()
export class FileStore implements OnModuleDestroy {
  private readonly backend: StoreBackend;
  readonly tempDir: string;

  constructor(stores: StoresSettings, files: FilesSettings) {
    const root = resolve(stores.STORAGE_DIR);
    this.tempDir = join(root, '.incoming');
    this.backend = stores.S3_ENDPOINT
      ? new S3Backend(stores, files.S3_FORCE_PATH_STYLE, stores.S3_BUCKET ?? 'uploads')
      : new LocalBackend(root);
  }

  get provider(): 'local' | 's3' {
    return this.backend.provider;
  }

  onModuleDestroy() {
    if (this.backend instanceof S3Backend) this.backend.client.destroy();
  }

  async put(key: string, tempPath: string): Promise<void> {
    if (await this.backend.exists(key)) return void (await rm(tempPath, { force: true }));
    await this.backend.put(key, tempPath);
  }

  open(key: string): Promise<Readable> {
    return this.backend.open(key);
  }

  remove(key: string): Promise<void> {
    return this.backend.remove(key);
  }
}
