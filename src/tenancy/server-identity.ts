import { Client as PgClient } from 'pg';
import { DbTarget, withAdminConnection } from '../database/data-source-factory';

/**
 * What a PostgreSQL server is, whatever name or address reaches it: its cluster's system
 * identifier (fixed at initdb) and the port it listens on (copies of one data directory share the
 * identifier). Two host names, an IP or a pooler in front of one server all answer the same.
 */
export interface ServerIdentity {
  systemIdentifier: string;
  clusterPort: number;
}

/** An unreachable server answers within this, so a registration or a move does not hang on it. */
const CONNECT_TIMEOUT_MS = 5_000;

export async function identityOver(pg: PgClient): Promise<ServerIdentity> {
  const { rows } = await pg.query<{ id: string; port: string }>(
    `SELECT system_identifier::text AS id, current_setting('port') AS port FROM pg_control_system()`,
  );
  return { systemIdentifier: rows[0].id, clusterPort: Number(rows[0].port) };
}

/** The identity of the server at `admin` (its administrative login, any database). */
export function readServerIdentity(admin: DbTarget): Promise<ServerIdentity> {
  return withAdminConnection(admin, identityOver, CONNECT_TIMEOUT_MS);
}

export function sameServer(a: ServerIdentity | null | undefined, b: ServerIdentity | null | undefined) {
  return !!a && !!b && a.systemIdentifier === b.systemIdentifier && a.clusterPort === b.clusterPort;
}

export const describeIdentity = (id: ServerIdentity) =>
  `system ${id.systemIdentifier}, port ${id.clusterPort}`;
