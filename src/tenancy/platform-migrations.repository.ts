import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MASTER_DATA_SOURCE } from '../database/master-data-source';
import { SqlExample } from '../database/sql-example';

/** The master database's record of its own migration set (`platform_migrations`). */
@Injectable()
export class PlatformMigrationsRepository {
  constructor(@Inject(MASTER_DATA_SOURCE) private readonly master: DataSource) {}

  /** The newest master migration applied to the master database; null before the first. */
  @SqlExample()
  async newestApplied(): Promise<string | null> {
    const rows: { name: string }[] = await this.master.query(
      'SELECT name FROM public.platform_migrations ORDER BY timestamp DESC, id DESC LIMIT 1',
    );
    return rows[0]?.name ?? null;
  }
}
