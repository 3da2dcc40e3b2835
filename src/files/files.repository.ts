import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { companyWhere } from '../access/company-rule';
import { SqlExample } from '../database/sql-example';
import { UploadedFile } from './entities/uploaded-file.entity';

/** A new file record (what the upload stored and where). */
export type NewUploadedFile = Pick<
  UploadedFile,
  | 'companyId'
  | 'name'
  | 'hash'
  | 'ext'
  | 'mime'
  | 'size'
  | 'provider'
  | 'folderPath'
  | 'storageKey'
  | 'ref'
  | 'refId'
  | 'field'
  | 'createdById'
>;

const EXAMPLE_FILE: NewUploadedFile = {
  companyId: 2,
  name: 'inspection.pdf',
  hash: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  ext: '.pdf',
  mime: 'application/pdf',
  size: 48213,
  provider: 'local',
  folderPath: 'companies/2/units',
  storageKey: 'companies/2/units/9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08.pdf',
  ref: 'unit',
  refId: 7,
  field: 'attachments',
  createdById: 3,
};

/** The file records (`uploaded_files`), with the caller's manager (and so its transaction). */
@Injectable()
export class FilesRepository {
  /** One file within a company scope (null: any company). */
  @SqlExample((c) => [c.manager, 11, 2])
  @SqlExample((c) => [c.manager, 11, null])
  find(m: EntityManager, id: number, scope: number | null): Promise<UploadedFile | null> {
    return m.findOne(UploadedFile, { where: { id, ...companyWhere(scope) } });
  }

  /** The files of these ids that exist. */
  @SqlExample((c) => [c.manager, [11, 12]])
  byIds(m: EntityManager, ids: number[]): Promise<UploadedFile[]> {
    return m.find(UploadedFile, { where: { id: In([...new Set(ids)]) } });
  }

  /** Inserts the records of one upload, answering them with their ids. */
  @SqlExample((c) => [c.manager, [EXAMPLE_FILE]])
  insert(tx: EntityManager, files: NewUploadedFile[]): Promise<UploadedFile[]> {
    return tx.save(files.map((f) => tx.create(UploadedFile, f)));
  }
}
