import { Injectable, Logger } from '@nestjs/common';
import { ServerAdminRepository, ServerUsage } from '../database/server-admin.repository';
import { DatabaseServerRegistry } from '../tenancy/database-server-registry';
import { DatabaseServersRepository } from '../tenancy/database-servers.repository';
import { DatabaseServer } from '../tenancy/entities/database-server.entity';

/** A server that does not answer within this is shown without usage: the list never waits longer. */
const USAGE_TIMEOUT_MS = 2_000;

/**
 * What each database server holds right now, read live over its administrative login, all servers
 * at once: the size of its clients' databases and its open sessions. A server out of reach (or
 * slower than USAGE_TIMEOUT_MS) has none: the answer never fails because of one server.
 */
@Injectable()
export class DatabaseServerUsage {
  private readonly logger = new Logger(DatabaseServerUsage.name);

  constructor(
    private readonly servers: DatabaseServersRepository,
    private readonly serverAdmin: ServerAdminRepository,
    private readonly registry: DatabaseServerRegistry,
  ) {}

  /** Server id → its usage, or null when it could not be read in time. */
  async of(servers: DatabaseServer[]): Promise<Map<number, ServerUsage | null>> {
    const databases = await this.servers.clientDatabases();
    const read = await Promise.all(
      servers.map(
        async (server) => [server.id, await this.read(server, databases.get(server.id) ?? [])] as const,
      ),
    );
    return new Map(read);
  }

  private async read(server: DatabaseServer, databases: string[]): Promise<ServerUsage | null> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), USAGE_TIMEOUT_MS);
    });
    const usage = this.registry
      .adminTarget(server.id, server.host, server.port, 'postgres')
      .then((admin) => this.serverAdmin.usageAt(admin, databases, USAGE_TIMEOUT_MS))
      .catch((err: Error) => {
        this.logger.warn(`Database server ${server.id}: usage not read (${err.message})`);
        return null;
      });
    try {
      return await Promise.race([usage, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
