import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, IsNull, Not } from 'typeorm';
import { MASTER_DATA_SOURCE } from '../database/master-data-source';
import { SqlExample } from '../database/sql-example';
import { Client, ClientStatus } from './entities/client.entity';

/** The columns a new client row is written with; the rest take their defaults. */
export type NewClient = Pick<
  Client,
  | 'identifier'
  | 'companyName'
  | 'subdomain'
  | 'customDomain'
  | 'contactEmail'
  | 'serverId'
  | 'databaseHost'
  | 'databasePort'
  | 'databaseName'
  | 'databaseUsername'
  | 'databasePassword'
  | 'status'
  | 'maxUsers'
  | 'maxSandboxes'
>;

/** Columns changed on a client row. */
export type ClientChanges = Partial<Omit<Client, 'id' | 'createdAt' | 'updatedAt'>>;

/** A host a client is reached by: its subdomain under the base domain, or its own domain. */
export type ClientDomainField = 'subdomain' | 'customDomain';

const EXAMPLE_CLIENT: NewClient = {
  identifier: 'acme',
  companyName: 'Acme',
  subdomain: 'acme',
  customDomain: null,
  contactEmail: 'ops@acme.test',
  serverId: null,
  databaseHost: 'localhost',
  databasePort: 5432,
  databaseName: 'client_acme',
  databaseUsername: 'client_acme',
  databasePassword: null,
  status: 'PENDING',
  maxUsers: 50,
  maxSandboxes: 3,
};

/** The master `clients` table: the platform's registry of client databases. */
@Injectable()
export class ClientsRepository {
  constructor(@Inject(MASTER_DATA_SOURCE) private readonly master: DataSource) {}

  @SqlExample([1])
  byId(id: number): Promise<Client | null> {
    return this.master.getRepository(Client).findOneBy({ id });
  }

  @SqlExample(['client_acme'])
  byDatabaseName(databaseName: string): Promise<Client | null> {
    return this.master.getRepository(Client).findOneBy({ databaseName });
  }

  /** Every client but the deleted ones (the registry every replica keeps in memory). */
  @SqlExample()
  notDeleted(): Promise<Client[]> {
    return this.master.getRepository(Client).find({ where: { status: Not('DELETED') } });
  }

  @SqlExample([['ACTIVE', 'SUSPENDED']])
  withStatus(statuses: ClientStatus[]): Promise<Client[]> {
    return this.master.getRepository(Client).find({ where: { status: In(statuses) }, order: { id: 'ASC' } });
  }

  /** The clients placed on server `serverId` (deleted ones excluded), oldest first. */
  @SqlExample([1])
  onServer(serverId: number): Promise<Client[]> {
    return this.master
      .getRepository(Client)
      .find({ where: { serverId, status: Not('DELETED') }, order: { id: 'ASC' } });
  }

  /** A page of clients in the statuses given, else of every client not deleted; with the total. */
  @SqlExample([1, 20])
  @SqlExample([2, 10, ['ACTIVE']])
  page(page: number, pageSize: number, statuses?: ClientStatus[]): Promise<[Client[], number]> {
    return this.master.getRepository(Client).findAndCount({
      where: { status: statuses ? In(statuses) : Not('DELETED') },
      order: { id: 'ASC' },
      skip: (page - 1) * pageSize,
      take: pageSize,
    });
  }

  /** Any client, deleted ones included, holds the identifier. */
  @SqlExample(['acme'])
  identifierTaken(identifier: string): Promise<boolean> {
    return this.master.getRepository(Client).exist({ where: { identifier } });
  }

  /** A client not deleted (other than `exceptId`) is reached by that host, whatever its case. */
  @SqlExample(['subdomain', 'acme'])
  @SqlExample(['customDomain', 'acme.example.com', 1])
  domainTaken(field: ClientDomainField, value: string, exceptId?: number): Promise<boolean> {
    return this.master
      .getRepository(Client)
      .createQueryBuilder('c')
      .where(`lower(c.${field === 'subdomain' ? 'subdomain' : 'custom_domain'}) = :value`, { value })
      .andWhere("c.status <> 'DELETED'")
      .andWhere(exceptId ? 'c.id <> :exceptId' : '1=1', { exceptId })
      .getExists();
  }

  /** Inserts a client, in the caller's transaction when one is given. */
  @SqlExample((c) => [c.manager, EXAMPLE_CLIENT])
  insert(tx: EntityManager | null, client: NewClient): Promise<Client> {
    const clients = (tx ?? this.master.manager).getRepository(Client);
    return clients.save(clients.create(client));
  }

  /** Writes the client's columns as they are on the entity. */
  @SqlExample((c) => [c.manager, Object.assign(new Client(), EXAMPLE_CLIENT, { id: 1 })])
  save(tx: EntityManager | null, client: Client): Promise<Client> {
    return (tx ?? this.master.manager).getRepository(Client).save(client);
  }

  @SqlExample((c) => [c.manager, 1, { lastError: null }])
  async update(tx: EntityManager | null, id: number, changes: ClientChanges): Promise<void> {
    await (tx ?? this.master.manager).getRepository(Client).update(id, changes);
  }

  /** Moves the client to `to` only from one of the `from` statuses; answers whether it moved. */
  @SqlExample([1, ['PENDING'], 'PROVISIONING'])
  @SqlExample([1, ['ACTIVE'], 'SUSPENDED'])
  async transition(id: number, from: ClientStatus[], to: ClientStatus): Promise<boolean> {
    const result = await this.master
      .getRepository(Client)
      .createQueryBuilder()
      .update()
      .set({ status: to, ...(to === 'PROVISIONING' ? { lastError: null } : {}) })
      .where('id = :id AND status IN (:...from)', { id, from })
      .execute();
    return !!result.affected;
  }

  /** Marks a restore in place unless the client is being moved; answers whether it was marked. */
  @SqlExample([1])
  async markRestoring(id: number): Promise<boolean> {
    const result = await this.master
      .getRepository(Client)
      .update({ id, movingToServerId: IsNull() }, { restoringSince: new Date() });
    return !!result.affected;
  }

  /** Marks a move to `serverId` unless the client is being restored; answers whether it was marked. */
  @SqlExample([1, 2])
  async markMoving(id: number, serverId: number): Promise<boolean> {
    const result = await this.master
      .getRepository(Client)
      .update({ id, restoringSince: IsNull() }, { movingToServerId: serverId });
    return !!result.affected;
  }

  /** Every client touched since the last write, in one statement. */
  @SqlExample([[1, 2]])
  async touchLastAccess(ids: readonly number[]): Promise<void> {
    await this.master.query('UPDATE clients SET last_access_at = now() WHERE id = ANY($1::int[])', [ids]);
  }
}
