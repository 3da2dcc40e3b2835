import { Injectable } from '@nestjs/common';
import { DbTarget, withAdminConnection } from '../database/data-source-factory';
import { ReplicationRepository } from '../database/replication.repository';

/** Removing the write guard waits this long for each table's lock, and is tried this often. */
const REMOVAL_LOCK_MS = 2_000;
const ATTEMPTS = 4;
const BACKOFF_MS = 1_000;

/** Takes a move's write guard off a database: a source that writes again, a copy that carried it. */
@Injectable()
export class WriteGuards {
  constructor(private readonly replication: ReplicationRepository) {}

  async remove(db: DbTarget): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await withAdminConnection(db, (pg) => this.replication.removeWriteGuard(pg, REMOVAL_LOCK_MS));
        return;
      } catch (err) {
        if (attempt >= ATTEMPTS) throw err;
        await new Promise((resolve) => setTimeout(resolve, BACKOFF_MS * attempt));
      }
    }
  }
}
