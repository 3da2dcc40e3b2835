import { Injectable } from '@nestjs/common';
import { SqlExample } from '../database/sql-example';
import { TenantDatabase } from '../tenancy/tenant-database';

/** Reads of the record types files may be linked to (tables other features register). */
@Injectable()
export class LinkTargetsRepository {
  constructor(private readonly db: TenantDatabase) {}

  /**
   * Whether `table` (an identifier a feature registered, never user input) holds record `id` of the
   * uploading company (the company the upload names, not a caller's scope).
   */
  @SqlExample(['units', 7, 2])
  async exists(table: string, id: number, companyId: number): Promise<boolean> {
    const rows = await this.db.run((m) =>
      m.query<unknown[]>(`SELECT 1 FROM ${table} WHERE id = $1 AND company_id = $2`, [id, companyId]),
    );
    return rows.length > 0;
  }
}
