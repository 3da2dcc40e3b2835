import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import { BackupObjectMissing, BackupStore } from './backup-store';

/** Parts of a multipart upload (S3 wants at least 5 MiB for every part but the last). */
const PART_BYTES = 8 * 1024 * 1024;

export interface S3BackupStoreOptions {
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/**
 * Backup objects in an S3-compatible bucket, written as a multipart upload one part at a time (one
 * part in memory), so the object appears only when the upload is completed; a failed write aborts it.
 */
export class S3BackupStore implements BackupStore {
  readonly kind = 's3';
  private readonly s3: S3Client;
  private readonly bucket: string;

  constructor(o: S3BackupStoreOptions) {
    this.bucket = o.bucket;
    this.s3 = new S3Client({
      endpoint: o.endpoint,
      region: o.region,
      forcePathStyle: o.forcePathStyle,
      ...(o.accessKeyId && o.secretAccessKey
        ? { credentials: { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey } }
        : {}),
    });
  }

  async write(key: string, body: Readable): Promise<void> {
    const started = await this.s3.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key }));
    const uploadId = started.UploadId!;
    try {
      const parts: { ETag: string; PartNumber: number }[] = [];
      const send = async (data: Buffer) => {
        const PartNumber = parts.length + 1;
        const { ETag } = await this.s3.send(
          new UploadPartCommand({
            Bucket: this.bucket,
            Key: key,
            UploadId: uploadId,
            PartNumber,
            Body: data,
          }),
        );
        parts.push({ ETag: ETag!, PartNumber });
      };
      let pending: Buffer[] = [];
      let size = 0;
      for await (const chunk of body as AsyncIterable<Buffer>) {
        pending.push(chunk);
        size += chunk.length;
        if (size >= PART_BYTES) {
          await send(Buffer.concat(pending));
          pending = [];
          size = 0;
        }
      }
      if (size || !parts.length) await send(Buffer.concat(pending));
      await this.s3.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (err) {
      body.destroy();
      await this.s3
        .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }))
        .catch(() => undefined);
      throw err;
    }
  }

  async open(key: string): Promise<Readable> {
    try {
      const { Body } = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return Body as Readable;
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name === 'NoSuchKey' || name === 'NotFound') throw new BackupObjectMissing(key);
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    await this.removeLeftovers(key);
  }

  /**
   * Aborts the unfinished uploads of `key`. A store that cannot list them (some S3-compatible
   * ones) is left to its lifecycle rule for incomplete uploads: they are never visible as objects.
   */
  async removeLeftovers(key: string): Promise<void> {
    const listed = await this.s3
      .send(new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: key }))
      .catch((err: { name?: string; $metadata?: { httpStatusCode?: number } }) => {
        if (err.name === 'NotImplemented' || err.$metadata?.httpStatusCode === 405) return { Uploads: [] };
        throw err;
      });
    const { Uploads } = listed;
    for (const upload of Uploads ?? []) {
      if (upload.Key !== key) continue;
      await this.s3.send(
        new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: upload.UploadId }),
      );
    }
  }
}
