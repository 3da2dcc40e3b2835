import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SqlExample } from '../database/sql-example';
import { TenantDatabase } from '../tenancy/tenant-database';
import { MASTER_CLIENT } from '../tenancy/tenant-context';

export const BACKUP_KINDS = ['MANUAL', 'SCHEDULED'] as const;
export type BackupKind = (typeof BACKUP_KINDS)[number];
export const BACKUP_STATUSES = ['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED'] as const;
export type BackupStatus = (typeof BACKUP_STATUSES)[number];

/** A backup as the API shows it. */
export interface BackupView {
  id: number;
  clientId: number;
  kind: BackupKind;
  status: BackupStatus;
  startedAt: string | null;
  finishedAt: string | null;
  sizeBytes: number | null;
  sha256: string | null;
  error: string | null;
}

/** A backup row with what stays inside: where its object is and which key sealed it. */
export interface BackupRow extends BackupView {
  objectKey: string;
  keyId: string;
}

const COLUMNS = `id, client_id, kind, status, started_at, finished_at, size_bytes, sha256, error, object_key, key_id`;

interface RawRow {
  id: number;
  client_id: number;
  kind: BackupKind;
  status: BackupStatus;
  started_at: Date | null;
  finished_at: Date | null;
  size_bytes: string | null;
  sha256: string | null;
  error: string | null;
  object_key: string;
  key_id: string;
}

const toRow = (r: RawRow): BackupRow => ({
  id: r.id,
  clientId: r.client_id,
  kind: r.kind,
  status: r.status,
  startedAt: r.started_at?.toISOString() ?? null,
  finishedAt: r.finished_at?.toISOString() ?? null,
  sizeBytes: r.size_bytes === null ? null : Number(r.size_bytes),
  sha256: r.sha256,
  error: r.error,
  objectKey: r.object_key,
  keyId: r.key_id,
});

export const toBackupView = ({ objectKey: _o, keyId: _k, ...view }: BackupRow): BackupView => view;

/** The `backups` table of the master database: every statement of the feature on it. */
@Injectable()
export class BackupsRepository {
  constructor(private readonly db: TenantDatabase) {}

  /** A QUEUED backup of the client; its object key follows from its id. */
  @SqlExample([1, 'MANUAL', 'key-2026-01'])
  async create(clientId: number, kind: BackupKind, keyId: string): Promise<BackupRow> {
    return this.one(
      `WITH n AS (SELECT nextval(pg_get_serial_sequence('backups', 'id'))::int AS id)
       INSERT INTO backups (id, client_id, kind, object_key, key_id)
       SELECT id, $1::int, $2, 'clients/' || $1::int || '/backup-' || id || '.pgdump.enc', $3 FROM n
       RETURNING ${COLUMNS}`,
      [clientId, kind, keyId],
    ) as Promise<BackupRow>;
  }

  @SqlExample([1])
  get(id: number): Promise<BackupRow | null> {
    return this.one(`SELECT ${COLUMNS} FROM backups WHERE id = $1`, [id]);
  }

  @SqlExample([1, 1, 20])
  @SqlExample([1, 1000, 20])
  async list(clientId: number, page: number, pageSize: number): Promise<[BackupRow[], number]> {
    const master = await this.master();
    const rows: (RawRow & { total: string })[] = await master.query(
      `SELECT ${COLUMNS}, count(*) OVER () AS total FROM backups WHERE client_id = $1
        ORDER BY id DESC LIMIT $2 OFFSET $3`,
      [clientId, pageSize, (page - 1) * pageSize],
    );
    if (rows.length) return [rows.map(toRow), Number(rows[0].total)];
    const [{ total }] = await master.query(
      'SELECT count(*)::int AS total FROM backups WHERE client_id = $1',
      [clientId],
    );
    return [[], total];
  }

  /** QUEUED → RUNNING; null when the backup is not queued (run already, or deleted). */
  @SqlExample([1])
  claim(id: number): Promise<BackupRow | null> {
    return this.one(
      `UPDATE backups SET status = 'RUNNING', started_at = now(), heartbeat_at = now()
        WHERE id = $1 AND status = 'QUEUED' RETURNING ${COLUMNS}`,
      [id],
    );
  }

  @SqlExample([1])
  async heartbeat(id: number): Promise<void> {
    await (
      await this.master()
    ).query(`UPDATE backups SET heartbeat_at = now() WHERE id = $1 AND status = 'RUNNING'`, [id]);
  }

  /** RUNNING → COMPLETED; false when the row is no longer running (marked failed meanwhile, deleted). */
  @SqlExample([1, 1048576, 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'])
  async complete(id: number, sizeBytes: number, sha256: string): Promise<boolean> {
    return !!(await this.one(
      `UPDATE backups SET status = 'COMPLETED', finished_at = now(), size_bytes = $2, sha256 = $3
        WHERE id = $1 AND status = 'RUNNING' RETURNING ${COLUMNS}`,
      [id, sizeBytes, sha256],
    ));
  }

  @SqlExample([1, 'pg_dump exited with code 1'])
  async fail(id: number, error: string): Promise<void> {
    await (
      await this.master()
    ).query(
      `UPDATE backups SET status = 'FAILED', finished_at = now(), error = $2
        WHERE id = $1 AND status IN ('QUEUED', 'RUNNING')`,
      [id, error.slice(0, 1000)],
    );
  }

  @SqlExample([1])
  remove(id: number): Promise<BackupRow | null> {
    return this.one(`DELETE FROM backups WHERE id = $1 RETURNING ${COLUMNS}`, [id]);
  }

  /** Marks FAILED the RUNNING backups whose worker has not been heard of for `silentMs`; answers them. */
  @SqlExample([120000])
  async failAbandoned(silentMs: number): Promise<BackupRow[]> {
    const result: unknown = await (
      await this.master()
    ).query(
      `UPDATE backups SET status = 'FAILED', finished_at = now(),
              error = 'The worker running the backup stopped before it finished'
        WHERE status = 'RUNNING' AND heartbeat_at < now() - make_interval(secs => $1::float8 / 1000)
        RETURNING ${COLUMNS}`,
      [silentMs],
    );
    return rowsOf(result).map(toRow);
  }

  /**
   * Finished backups older than `days`, except each client's newest COMPLETED one (kept whatever
   * its age, so a client never loses its last good backup to retention).
   */
  @SqlExample([30])
  async expired(days: number): Promise<BackupRow[]> {
    const rows: RawRow[] = await (
      await this.master()
    ).query(
      `SELECT ${COLUMNS} FROM backups b
        WHERE status IN ('COMPLETED', 'FAILED') AND created_at < now() - make_interval(days => $1)
          AND id <> COALESCE((SELECT max(id) FROM backups n WHERE n.client_id = b.client_id
                               AND n.status = 'COMPLETED'), 0)`,
      [days],
    );
    return rows.map(toRow);
  }

  /** Active clients, those whose newest backup is oldest first (never backed up: first of all). */
  @SqlExample()
  async clientsByOldestBackup(): Promise<number[]> {
    const rows: { id: number }[] = await (
      await this.master()
    ).query(
      `SELECT c.id FROM clients c LEFT JOIN backups b ON b.client_id = c.id
        WHERE c.status = 'ACTIVE' GROUP BY c.id ORDER BY max(b.created_at) ASC NULLS FIRST, c.id`,
    );
    return rows.map((r) => r.id);
  }

  /**
   * Seconds since the newest COMPLETED backup of the active client that has waited longest for one
   * (a client never backed up counts from its provisioning); 0 without active clients.
   */
  @SqlExample()
  async oldestNewestCompletedAge(): Promise<number> {
    const [row]: { age: number | null }[] = await (
      await this.master()
    ).query(
      `SELECT max(extract(epoch FROM now() - COALESCE(newest, c.provisioned_at, c.created_at)))::float8 AS age
         FROM clients c
         LEFT JOIN LATERAL (SELECT max(finished_at) AS newest FROM backups b
                             WHERE b.client_id = c.id AND b.status = 'COMPLETED') n ON true
        WHERE c.status = 'ACTIVE'`,
    );
    return row?.age ?? 0;
  }

  private master(): Promise<DataSource> {
    return this.db.forClient(MASTER_CLIENT);
  }

  private async one(sql: string, params: unknown[]): Promise<BackupRow | null> {
    const rows = rowsOf(await (await this.master()).query(sql, params));
    return rows[0] ? toRow(rows[0]) : null;
  }
}

/** UPDATE/DELETE ... RETURNING answer [rows, count]; SELECT and INSERT answer the rows. */
function rowsOf(result: unknown): RawRow[] {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as RawRow[];
}
