import { ClientDto } from './dto/client.dto';
import { Client } from '../tenancy/entities/client.entity';

/** The client as the API shows it: never a database host, port, name, user or password. */
export function toClientView(client: Client): ClientDto {
  return {
    id: client.id,
    identifier: client.identifier,
    companyName: client.companyName,
    subdomain: client.subdomain,
    customDomain: client.customDomain,
    contactEmail: client.contactEmail,
    status: client.status,
    maxUsers: client.maxUsers,
    maxSandboxes: client.maxSandboxes,
    provisionedAt: client.provisionedAt,
    lastAccessAt: client.lastAccessAt,
    lastError: client.lastError,
    serverId: client.serverId,
    movingToServerId: client.movingToServerId,
    createdAt: client.createdAt,
    updatedAt: client.updatedAt,
  };
}
