import type { ServerUsage } from '../database/server-admin.repository';
import { DatabaseServer } from '../tenancy/entities/database-server.entity';
import { DatabaseServerDto } from './dto/database-server.dto';

/**
 * The server as the API shows it: never its host, port, pooler address nor administrative login.
 * `usage` is null when the server could not be read.
 */
export function toDatabaseServerView(
  server: DatabaseServer,
  clients: number,
  isDefault: boolean,
  usage: ServerUsage | null,
): DatabaseServerDto {
  return {
    id: server.id,
    name: server.name,
    state: server.state,
    maxClients: server.maxClients,
    maxConnections: server.maxConnections,
    pooled: server.poolerHost !== null,
    clients,
    logicalReplication: server.logicalReplication,
    totalSizeBytes: usage?.totalSizeBytes ?? null,
    connections: usage?.connections ?? null,
    isDefault,
    createdAt: server.createdAt,
    updatedAt: server.updatedAt,
  };
}
