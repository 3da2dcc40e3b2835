import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { companyCondition } from '../access/company-rule';
import { SqlExample } from '../database/sql-example';

/** An uploaded file a media field may name, and its type. */
export interface MediaFile {
  id: number;
  mime: string;
}

/** What custom tables read of uploaded files for their media fields. */
@Injectable()
export class CmsMediaRepository {
  /**
   * The files of `ids` the caller may read (`readable`, the files scope) that belong to `company`
   * (null: any), in the caller's transaction.
   */
  @SqlExample((c) => [c.manager, [1, 2], 7, 7])
  @SqlExample((c) => [c.manager, [1], null, null])
  filesOf(
    m: EntityManager,
    ids: number[],
    readable: number | null,
    company: number | null,
  ): Promise<MediaFile[]> {
    return m.query<MediaFile[]>(
      `SELECT id, mime FROM uploaded_files WHERE id = ANY($1::bigint[])
        AND ${companyCondition('company_id', 2)} AND ${companyCondition('company_id', 3)}`,
      [ids, readable, company],
    );
  }
}
