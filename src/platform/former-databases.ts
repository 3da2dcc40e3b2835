import { Injectable, Logger } from '@nestjs/common';
import { withAdminConnection } from '../database/data-source-factory';
import { ServerAdminRepository, ServerIdentity } from '../database/server-admin.repository';
import { ClientsRepository } from '../tenancy/clients.repository';
import { DatabaseServerRegistry } from '../tenancy/database-server-registry';
import { sameServer } from '../tenancy/server-identity';
import { MovedSource } from './move-jobs';

/** The databases moves leave on former servers, dropped once the grace period is over. */
@Injectable()
export class FormerDatabases {
  private readonly logger = new Logger(FormerDatabases.name);

  constructor(
    private readonly clients: ClientsRepository,
    private readonly serverAdmin: ServerAdminRepository,
    private readonly servers: DatabaseServerRegistry,
  ) {}

  /**
   * Drops the database a move left on the former server, and its login role unless the client is
   * (or is being moved) back on that server. Servers are compared by what they answer, never by
   * address: nothing is dropped when the address now leads to another server, nor when the
   * database is the one the client is on.
   */
  async drop(clientId: number, source: MovedSource): Promise<void> {
    const client = await this.clients.byId(clientId);
    const admin = await this.servers.adminTarget(source.serverId, source.host, source.port, 'postgres');
    const [current, moving] = await Promise.all([
      client ? this.liveIdentity(client.serverId, client.databaseHost, client.databasePort) : null,
      client?.movingToServerId ? this.serverIdentity(client.movingToServerId) : null,
    ]);
    await withAdminConnection(admin, async (pg) => {
      const here = await this.serverAdmin.identity(pg);
      if (source.systemIdentifier && !sameServer(here, source as ServerIdentity)) {
        this.logger.warn(
          `Keeping the former database of client ${clientId}: its address leads to another server now`,
        );
        return;
      }
      if (client && !current) {
        this.logger.warn(
          `Keeping the former database of client ${clientId}: its server cannot be identified`,
        );
        return;
      }
      const clientHere = sameServer(current, here);
      if (clientHere && client!.databaseName === source.database) {
        this.logger.warn(`Keeping the former database of client ${clientId}: the client is on it`);
        return;
      }
      await this.serverAdmin.dropDatabase(pg, source.database);
      this.logger.log(`Dropped the former database of client ${clientId} (${source.database})`);
      // The login role is the client's on this server as long as it has a database here.
      if (clientHere || sameServer(moving, here)) return;
      await this.serverAdmin.dropRole(pg, source.role).catch((err: Error) => {
        this.logger.warn(`Keeping role ${source.role} on server ${source.serverId}: ${err.message}`);
      });
    });
  }

  /** The live identity of a client's server, else the one stored, else null. */
  private async liveIdentity(serverId: number | null, host: string, port: number) {
    try {
      return await this.serverAdmin.identityAt(
        await this.servers.adminTarget(serverId, host, port, 'postgres'),
      );
    } catch {
      const server = serverId === null ? undefined : await this.servers.get(serverId);
      return server ? this.servers.storedIdentity(server) : null;
    }
  }

  private async serverIdentity(serverId: number) {
    const server = await this.servers.get(serverId);
    return server ? this.liveIdentity(server.id, server.host, server.port) : null;
  }
}
