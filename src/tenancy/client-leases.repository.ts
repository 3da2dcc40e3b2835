import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MASTER_DATA_SOURCE } from '../database/master-data-source';
import { SqlExample } from '../database/sql-example';

/**
 * The master `client_leases` table: who works on a client's database (a move or a migration) and
 * until when. A holder renews its lease while it works; one that stops leaves a lease that runs out.
 */
@Injectable()
export class ClientLeasesRepository {
  constructor(@Inject(MASTER_DATA_SOURCE) private readonly master: DataSource) {}

  /** Takes the client's lease when free, run out or already this holder's; answers whether it did. */
  @SqlExample([1, 'worker-1:job', 'move', 15_000])
  async take(clientId: number, holder: string, purpose: string, ttlMs: number): Promise<boolean> {
    const rows: unknown[] = await this.master.query(
      `INSERT INTO client_leases (client_id, holder, purpose, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4::float8 / 1000))
       ON CONFLICT (client_id) DO UPDATE
         SET holder = EXCLUDED.holder, purpose = EXCLUDED.purpose, expires_at = EXCLUDED.expires_at
         WHERE client_leases.expires_at < now() OR client_leases.holder = EXCLUDED.holder
       RETURNING client_id`,
      [clientId, holder, purpose, ttlMs],
    );
    return rows.length > 0;
  }

  /** Extends the holder's lease; false when it is no longer the holder's. */
  @SqlExample([1, 'worker-1:job', 15_000])
  async renew(clientId: number, holder: string, ttlMs: number): Promise<boolean> {
    const [, count]: [unknown, number] = await this.master.query(
      `UPDATE client_leases SET expires_at = now() + make_interval(secs => $3::float8 / 1000)
        WHERE client_id = $1 AND holder = $2`,
      [clientId, holder, ttlMs],
    );
    return count > 0;
  }

  @SqlExample([1, 'worker-1:job'])
  async release(clientId: number, holder: string): Promise<void> {
    await this.master.query('DELETE FROM client_leases WHERE client_id = $1 AND holder = $2', [
      clientId,
      holder,
    ]);
  }
}
