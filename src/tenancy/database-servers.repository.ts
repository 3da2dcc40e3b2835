import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager, IsNull, Not } from 'typeorm';
import { MASTER_DATA_SOURCE } from '../database/master-data-source';
import { PoolerAddress } from '../database/pooling';
import { SqlExample, SqlNotRun } from '../database/sql-example';
import { DatabaseServer } from './entities/database-server.entity';
import type { ServerFacts, ServerIdentity } from '../database/server-admin.repository';

/** The label of the server of MULTITENANCY_DB_HOST:PORT: never its address (names reach the API). */
export const DEFAULT_SERVER_NAME = 'default';

/**
 * Registers the server at $2:$3 unless it is: named `default` for the default server ($1) while
 * that name is free, else `<$1>-<next id>` (other servers found at start are `server-<n>`).
 */
const REGISTER_SQL = `
  INSERT INTO database_servers (name, host, port, state)
  SELECT CASE WHEN $1::text = '${DEFAULT_SERVER_NAME}'
                AND NOT EXISTS (SELECT 1 FROM database_servers WHERE lower(name) = $1::text)
              THEN $1::text
              ELSE $1::text || '-' || (SELECT coalesce(max(id), 0) + 1 FROM database_servers) END,
         $2, $3, 'active'
  ON CONFLICT DO NOTHING`;

/** Earlier versions named the default server after its address: it becomes $3 when that is free. */
const RENAME_DEFAULT_SQL = `
  UPDATE database_servers SET name = $3
   WHERE lower(host) = lower($1) AND port = $2 AND lower(name) = lower($1 || ':' || $2)
     AND NOT EXISTS (SELECT 1 FROM database_servers WHERE lower(name) = $3)`;

/** Clients holding a place on each server: those on it and those being moved to it. */
const PLACES_SQL = `
  SELECT s.id, count(c.id)::int AS clients
    FROM database_servers s
    LEFT JOIN clients c ON c.status <> 'DELETED' AND (c.server_id = s.id OR c.moving_to_server_id = s.id)
   GROUP BY s.id`;

/** Held while the default server is registered and clients are back-filled, so replicas take turns. */
const REGISTRATION_LOCK = 7243005;
/** Held by placements, so two clients created at once cannot both take a server's last place. */
const PLACEMENT_LOCK = 7243006;
/** Held while a server's identity is checked and saved, so one server cannot be registered twice at once. */
const IDENTITY_LOCK = 7243009;

/** The columns a new server row is written with; the rest take their defaults. */
export type NewDatabaseServer = Omit<DatabaseServer, 'id' | 'createdAt' | 'updatedAt'>;

export interface ServerAddress {
  host: string;
  port: number;
}

const EXAMPLE_SERVER: NewDatabaseServer = {
  name: 'eu-2',
  host: 'db2.internal',
  port: 5432,
  systemIdentifier: '7300000000000000001',
  clusterPort: 5432,
  logicalReplication: true,
  poolerHost: null,
  poolerPort: null,
  adminUsername: 'postgres',
  adminPassword: null,
  maxClients: 1000,
  maxConnections: 100,
  state: 'active',
};

/** The master `database_servers` table: the PostgreSQL servers client databases are placed on. */
@Injectable()
export class DatabaseServersRepository {
  constructor(@Inject(MASTER_DATA_SOURCE) private readonly master: DataSource) {}

  /** Every server, in the caller's transaction when one is given. */
  @SqlExample()
  all(tx: EntityManager | null = null): Promise<DatabaseServer[]> {
    return (tx ?? this.master.manager).getRepository(DatabaseServer).find({ order: { id: 'ASC' } });
  }

  @SqlExample([1])
  byId(id: number): Promise<DatabaseServer | null> {
    return this.master.getRepository(DatabaseServer).findOneBy({ id });
  }

  /**
   * Servers registered without an identity or a wal_level read (older rows, or out of reach when
   * last tried).
   */
  @SqlExample()
  notFullyIdentified(): Promise<DatabaseServer[]> {
    return this.master.getRepository(DatabaseServer).find({
      where: [{ systemIdentifier: IsNull() }, { logicalReplication: IsNull() }],
      order: { id: 'ASC' },
    });
  }

  /** Stores what was read of the server: its identity, its wal_level, or both. */
  @SqlExample([1, { systemIdentifier: '7300000000000000001', clusterPort: 5432, logicalReplication: true }])
  @SqlExample([1, { logicalReplication: false }])
  async setFacts(id: number, facts: Partial<ServerFacts>): Promise<void> {
    await this.master.getRepository(DatabaseServer).update(id, facts);
  }

  /** The registered server (other than `exceptId`) with that identity. */
  @SqlExample((c) => [c.manager, { systemIdentifier: '7300000000000000001', clusterPort: 5432 }])
  @SqlExample((c) => [c.manager, { systemIdentifier: '7300000000000000001', clusterPort: 5432 }, 1])
  withIdentity(
    tx: EntityManager | null,
    identity: ServerIdentity,
    exceptId?: number,
  ): Promise<DatabaseServer | null> {
    return (tx ?? this.master.manager).getRepository(DatabaseServer).findOneBy({
      systemIdentifier: identity.systemIdentifier,
      clusterPort: identity.clusterPort,
      ...(exceptId ? { id: Not(exceptId) } : {}),
    });
  }

  /** A server (other than `exceptId`) has that name, whatever its case. */
  @SqlExample(['eu-2'])
  @SqlExample(['eu-2', 1])
  nameTaken(name: string, exceptId?: number): Promise<boolean> {
    return this.master
      .getRepository(DatabaseServer)
      .createQueryBuilder('s')
      .where('lower(s.name) = lower(:name)', { name })
      .andWhere(exceptId ? 's.id <> :exceptId' : '1=1', { exceptId })
      .getExists();
  }

  @SqlExample([{ host: 'db2.internal', port: 5432 }])
  addressTaken(address: ServerAddress): Promise<boolean> {
    return this.master
      .getRepository(DatabaseServer)
      .createQueryBuilder('s')
      .where('lower(s.host) = lower(:host) AND s.port = :port', address)
      .getExists();
  }

  @SqlExample((c) => [c.manager, EXAMPLE_SERVER])
  insert(tx: EntityManager, server: NewDatabaseServer): Promise<DatabaseServer> {
    const servers = tx.getRepository(DatabaseServer);
    return servers.save(servers.create(server));
  }

  /** Writes the server's columns as they are on the entity. */
  @SqlExample((c) => [c.manager, Object.assign(new DatabaseServer(), EXAMPLE_SERVER, { id: 1 })])
  save(tx: EntityManager | null, server: DatabaseServer): Promise<DatabaseServer> {
    return (tx ?? this.master.manager).getRepository(DatabaseServer).save(server);
  }

  /** Server id → clients holding a place on it (on it, or being moved to it). */
  @SqlExample((c) => [c.manager])
  async places(tx: EntityManager | null): Promise<Map<number, number>> {
    const rows: { id: number; clients: number }[] = await (tx ?? this.master.manager).query(PLACES_SQL);
    return new Map(rows.map((r) => [r.id, r.clients]));
  }

  /** Server id → the databases of the clients placed on it (deleted ones excluded). */
  @SqlExample()
  async clientDatabases(): Promise<Map<number, string[]>> {
    const rows: { id: number; databases: string[] }[] = await this.master.query(
      `SELECT server_id AS id, array_agg(database_name ORDER BY id) AS databases
         FROM clients WHERE status <> 'DELETED' AND server_id IS NOT NULL
        GROUP BY server_id`,
    );
    return new Map(rows.map((r) => [r.id, r.databases]));
  }

  @SqlNotRun('waits on an advisory lock held by placements under way')
  async lockPlacement(tx: EntityManager): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [PLACEMENT_LOCK]);
  }

  @SqlNotRun('waits on an advisory lock held by registrations under way')
  async lockIdentity(tx: EntityManager): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [IDENTITY_LOCK]);
  }

  @SqlNotRun('waits on an advisory lock held by another replica starting')
  async lockRegistration(tx: EntityManager): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [REGISTRATION_LOCK]);
  }

  /** Addresses of the clients not placed on a registered server yet. */
  @SqlExample((c) => [c.manager])
  unplacedAddresses(tx: EntityManager): Promise<ServerAddress[]> {
    return tx.query(
      `SELECT DISTINCT database_host AS host, database_port AS port FROM clients WHERE server_id IS NULL`,
    );
  }

  /** Renames the default server from its old address-name to `name` when that name is free. */
  @SqlExample((c) => [c.manager, { host: 'localhost', port: 5432 }, DEFAULT_SERVER_NAME])
  async renameDefault(tx: EntityManager, own: ServerAddress, name: string): Promise<void> {
    await tx.query(RENAME_DEFAULT_SQL, [own.host, own.port, name]);
  }

  /** Registers the server at `address` unless it is, named `name` (or `<name>-<next id>`). */
  @SqlExample((c) => [c.manager, DEFAULT_SERVER_NAME, { host: 'localhost', port: 5432 }])
  @SqlExample((c) => [c.manager, 'server', { host: 'db2.internal', port: 5432 }])
  async register(tx: EntityManager, name: string, address: ServerAddress): Promise<void> {
    await tx.query(REGISTER_SQL, [name, address.host, address.port]);
  }

  /** Places every client without a server at `address` on the server registered there. */
  @SqlExample((c) => [c.manager, { host: 'localhost', port: 5432 }])
  async placeClientsAt(tx: EntityManager, address: ServerAddress): Promise<void> {
    await tx.query(
      `UPDATE clients c SET server_id = s.id FROM database_servers s
        WHERE c.server_id IS NULL AND lower(s.host) = lower(c.database_host) AND s.port = c.database_port
          AND lower(s.host) = lower($1) AND s.port = $2`,
      [address.host, address.port],
    );
  }

  /** Gives the server at `address` that pooler when it has none; answers whether it did. */
  @SqlExample((c) => [c.manager, { host: 'localhost', port: 5432 }, { host: 'pgbouncer', port: 6432 }])
  async seedPooler(tx: EntityManager, address: ServerAddress, pooler: PoolerAddress): Promise<boolean> {
    const [{ n }]: { n: number }[] = await tx.query(
      `WITH seeded AS (
         UPDATE database_servers SET pooler_host = $3, pooler_port = $4
          WHERE lower(host) = lower($1) AND port = $2 AND pooler_host IS NULL RETURNING id)
       SELECT count(*)::int AS n FROM seeded`,
      [address.host, address.port, pooler.host, pooler.port],
    );
    return n > 0;
  }
}
