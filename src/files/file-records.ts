import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { EntityManager } from 'typeorm';
import { UploadedFile } from './entities/uploaded-file.entity';
import { FileStore } from './file-store';
import { FilesRepository } from './files.repository';

/** Reading uploaded files for other features, with the caller's manager (and so its transaction). */
@Injectable()
export class FileRecords {
  constructor(
    private readonly store: FileStore,
    private readonly files: FilesRepository,
  ) {}

  /** One file, of the company unless it is null; else null. */
  find(m: EntityManager, id: number, companyId: number | null = null): Promise<UploadedFile | null> {
    return this.files.find(m, id, companyId);
  }

  /** The files of these ids that exist, by id. */
  async byId(m: EntityManager, ids: number[]): Promise<Map<number, UploadedFile>> {
    const files = ids.length ? await this.files.byIds(m, ids) : [];
    return new Map(files.map((f) => [f.id, f]));
  }

  /** An SQL expression of the name of the file whose id is in `fileIdColumn`, for queries sorting by it. */
  nameOf(fileIdColumn: string): string {
    return `(SELECT name FROM uploaded_files WHERE id = ${fileIdColumn})`;
  }

  open(file: UploadedFile): Promise<Readable> {
    return this.store.open(file.storageKey);
  }
}
