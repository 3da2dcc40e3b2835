import { DatabaseServer } from '../tenancy/entities/database-server.entity';
import { DatabaseServerDto } from './dto/database-server.dto';

/** The server as the API shows it: never its host, port, pooler address nor administrative login. */
export function toDatabaseServerView(
  server: DatabaseServer,
  clients: number,
  isDefault: boolean,
): DatabaseServerDto {
  return {
    id: server.id,
    name: server.name,
    state: server.state,
    maxClients: server.maxClients,
    maxConnections: server.maxConnections,
    pooled: server.poolerHost !== null,
    clients,
    isDefault,
    createdAt: server.createdAt,
    updatedAt: server.updatedAt,
  };
}
