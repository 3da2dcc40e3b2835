import { Injectable, Logger } from '@nestjs/common';
import { CLIENT_MIGRATIONS } from '../../migrations/client';
import { AppConfig } from '../config/app-config';
import { DbTarget, withAdminConnection } from '../database/data-source-factory';
import { ServerAdminRepository } from '../database/server-admin.repository';
import { ClientSchemasRepository } from './client-schemas.repository';
import { masterDirectTarget } from '../database/pooling';
import { awaitSchemaDdl, runSchemaDdl, SchemaDdl } from '../database/schema-ddl.repository';
import {
  migrationBounds,
  migrationsAfter,
  newestMigrations,
  runMigrationSet,
} from '../database/migration-runner';
import { SANDBOX_SCHEMA_LIKE } from './sandbox-naming';
import { Client } from './entities/client.entity';
import { DatabaseServerRegistry } from './database-server-registry';
import { ClientMovesRepository } from './client-moves.repository';
import { clientMovingRefusal } from './migrating-clients';

const SANDBOX_CREATION_LOCK = 7243102;
/** SQLSTATE of a connection to a database that does not exist. */
const MISSING_DATABASE = '3D000';

export interface MigrationReport {
  currentVersion: string | null;
  pendingCount: number;
  pendingVersions: string[];
}

/**
 * Platform administration of client databases (provisioning, migrations, sandbox schemas), always
 * over the platform's administrative credentials: the client's own login role only reads and
 * writes rows, so it cannot alter tables nor rewrite the audit log. Schema DDL runs through
 * runSchemaDdl (one transaction under the schema's advisory lock).
 */
@Injectable()
export class ClientDatabases {
  private readonly logger = new Logger(ClientDatabases.name);

  constructor(
    private readonly config: AppConfig,
    private readonly servers: DatabaseServerRegistry,
    private readonly serverAdmin: ServerAdminRepository,
    private readonly schemas: ClientSchemasRepository,
    private readonly moves: ClientMovesRepository,
  ) {}

  /** Creates the login role and the database when missing (idempotent), then migrates it. */
  async create(client: Client, password: string): Promise<void> {
    const admin = await this.adminTarget(client, 'postgres');
    await withAdminConnection(admin, async (pg) => {
      await this.serverAdmin.ensureLoginRole(pg, client.databaseUsername, password);
      if (!(await this.serverAdmin.databaseExists(pg, client.databaseName))) {
        await this.serverAdmin.createDatabase(pg, client.databaseName);
      }
      await this.serverAdmin.restrictDatabaseTo(pg, client.databaseName, client.databaseUsername);
    });
    await this.migrate(client);
  }

  /**
   * Applies pending client migrations to production and every sandbox schema. Schemas whose newest
   * recorded migration is the code's newest are left alone, so a current database costs one
   * connection and two short queries.
   */
  async migrate(client: Client): Promise<string[]> {
    const schemas = await this.schemasBehind(client);
    const target = await this.adminTarget(client);
    const ran: string[] = [];
    for (const schema of schemas) {
      ran.push(
        ...(await runMigrationSet(target, CLIENT_MIGRATIONS, {
          schema,
          bounds: migrationBounds(this.config),
        })),
      );
      await this.grant(client, schema);
    }
    if (ran.length) this.logger.log(`${client.identifier}: ran ${ran.length} migration(s)`);
    return ran;
  }

  /** The schemas (production first) whose newest recorded migration is older than the code's newest. */
  async schemasBehind(client: Client): Promise<string[]> {
    let newest: Map<string, string | null>;
    try {
      newest = await withAdminConnection(await this.adminTarget(client), (pg) =>
        newestMigrations(pg, SANDBOX_SCHEMA_LIKE),
      );
    } catch (err) {
      if ((err as { code?: string }).code === MISSING_DATABASE) return ['public'];
      throw err;
    }
    return [...newest.entries()]
      .filter(([, applied]) => migrationsAfter(CLIENT_MIGRATIONS, applied).length > 0)
      .map(([schema]) => schema)
      .sort((a, b) => (a === 'public' ? -1 : b === 'public' ? 1 : a.localeCompare(b)));
  }

  /** Production's newest recorded migration and the code's newer ones, in one short query. */
  async status(client: Client): Promise<MigrationReport> {
    const currentVersion = await withAdminConnection(await this.adminTarget(client), (pg) =>
      this.schemas.newestProductionMigration(pg),
    );
    const pendingVersions = migrationsAfter(CLIENT_MIGRATIONS, currentVersion);
    return { currentVersion, pendingCount: pendingVersions.length, pendingVersions };
  }

  /** Creates and migrates a sandbox schema, granting the client's role the same rights as in production. */
  async createSchema(client: Client | null, schema: string): Promise<void> {
    const target = await this.sandboxTarget(client);
    await runMigrationSet(target, CLIENT_MIGRATIONS, { schema, bounds: migrationBounds(this.config) });
    if (client) await this.grant(client, schema);
  }

  async dropSchema(client: Client | null, schema: string): Promise<void> {
    const target = await this.sandboxTarget(client);
    await runSchemaDdl(target, schema, async (ddl) => {
      await this.refuseDuringMove(client);
      await ddl.dropSchema();
    });
  }

  /** Copies production rows of every per-schema table (audit trail excluded) into a sandbox schema. */
  async copyProduction(client: Client | null, schema: string): Promise<void> {
    const target = await this.sandboxTarget(client);
    await runSchemaDdl(target, schema, (ddl) => this.schemas.copyProductionInto(ddl, schema));
  }

  /**
   * Runs `work` holding the database's sandbox-creation lock: a session advisory lock on an
   * administrative connection of its own, so it serialises creations across replicas without
   * taking a connection from the client's bounded pool.
   */
  async withSandboxCreationLock<T>(client: Client | null, work: () => Promise<T>): Promise<T> {
    const target = await this.sandboxTarget(client);
    return withAdminConnection(target, async (pg) => {
      await this.serverAdmin.lockSession(pg, SANDBOX_CREATION_LOCK);
      try {
        await this.refuseDuringMove(client);
        return await work();
      } finally {
        await this.serverAdmin.unlockSession(pg, SANDBOX_CREATION_LOCK).catch(() => undefined);
      }
    });
  }

  /**
   * Runs schema DDL of custom tables in one schema of the client's database (the master one when
   * `client` is null): one transaction under the schema's advisory lock.
   */
  schemaDdl<T>(client: Client | null, schema: string, work: (ddl: SchemaDdl) => Promise<T>): Promise<T> {
    return this.sandboxTarget(client).then((target) =>
      runSchemaDdl(target, schema, async (ddl) => {
        await this.refuseDuringMove(client);
        return work(ddl);
      }),
    );
  }

  /**
   * Waits for the schema changes under way in the client's database (custom tables, sandbox
   * creations) to end. Called by a move once it is recorded: the changes that start later find it
   * and are refused (logical replication does not carry them).
   */
  async awaitSchemaChanges(client: Client): Promise<void> {
    await withAdminConnection(await this.adminTarget(client), async (pg) => {
      await this.serverAdmin.lockSession(pg, SANDBOX_CREATION_LOCK);
      await awaitSchemaDdl(pg);
    });
  }

  /** 503 CLIENT_MOVING while a move of the client is recorded (checked under the schema's lock). */
  private async refuseDuringMove(client: Client | null): Promise<void> {
    if (client && (await this.moves.openFor(client.id))) throw clientMovingRefusal();
  }

  /** A short-lived administrative connection to the client's database (used by audit retention). */
  async asAdmin<T>(client: Client, fn: (pg: import('pg').Client) => Promise<T>): Promise<T> {
    return withAdminConnection(await this.adminTarget(client), fn);
  }

  /** Grants the client's login role its rights in production and every sandbox schema (after a restore). */
  async grantAll(client: Client): Promise<void> {
    const schemas = await withAdminConnection(await this.adminTarget(client), (pg) =>
      this.schemas.schemaNames(pg, SANDBOX_SCHEMA_LIKE),
    );
    for (const schema of schemas) await this.grant(client, schema);
  }

  private async grant(client: Client, schema: string) {
    await runSchemaDdl(await this.adminTarget(client), schema, async (ddl) => {
      await ddl.grantApplicationRights(client.databaseUsername);
      await this.schemas.revokeAuditWrites(ddl, client.databaseUsername);
    });
  }

  /** Where sandbox schemas live: the client's database, or the master one when multi-tenancy is off. */
  private async sandboxTarget(client: Client | null): Promise<DbTarget> {
    return client ? this.adminTarget(client) : masterDirectTarget(this.config);
  }

  /** The client's server, reached with that server's administrative login. */
  adminTarget(client: Client, database = client.databaseName): Promise<DbTarget> {
    return this.servers.adminTarget(client.serverId, client.databaseHost, client.databasePort, database);
  }
}
