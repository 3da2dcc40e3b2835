import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppError } from '../common/errors/app-error';
import { SecretBox } from '../common/crypto/secret-box';
import { DbTarget } from '../database/data-source-factory';
import { DatabaseServerRegistry } from '../tenancy/database-server-registry';
import { DatabaseServer } from '../tenancy/entities/database-server.entity';
import { PlatformDatabase } from '../tenancy/platform-database';
import { DatabaseServersRepository } from '../tenancy/database-servers.repository';
import { sameServer } from '../tenancy/server-identity';
import {
  ServerAdminRepository,
  ServerFacts,
  ServerIdentity,
  ServerUsage,
} from '../database/server-admin.repository';
import { DatabaseServerUsage } from './database-server-usage';
import { toDatabaseServerView } from './database-server.view';
import { CreateDatabaseServerDto, UpdateDatabaseServerDto } from './dto/database-server.dto';

/** The registry of database servers and the placement of new clients on them. */
@Injectable()
export class DatabaseServersService {
  private readonly logger = new Logger(DatabaseServersService.name);

  constructor(
    private readonly platform: PlatformDatabase,
    private readonly servers: DatabaseServersRepository,
    private readonly serverAdmin: ServerAdminRepository,
    private readonly registry: DatabaseServerRegistry,
    private readonly secrets: SecretBox,
    private readonly usage: DatabaseServerUsage,
  ) {}

  /** Every server with its usage, read from all servers at once (see DatabaseServerUsage). */
  async list() {
    const servers = await this.servers.all();
    const [places, usage] = await Promise.all([this.servers.places(null), this.usage.of(servers)]);
    return { data: servers.map((s) => this.view(s, places, usage)) };
  }

  async get(id: number) {
    const server = await this.find(id);
    const [places, usage] = await Promise.all([this.servers.places(null), this.usage.of([server])]);
    return { data: this.view(server, places, usage) };
  }

  /**
   * 409 when the name is taken or the server is registered already, under any address: servers
   * are told apart by what they answer (ServerIdentity), read here through the login given.
   */
  async create(dto: CreateDatabaseServerDto) {
    await this.assertFree(dto.name, { host: dto.host, port: dto.port });
    const identity = await this.identify(
      this.registry.loginTarget(
        { host: dto.host, port: dto.port, database: 'postgres' },
        dto.adminUsername,
        dto.adminPassword,
      ),
    );
    // Servers registered before identities were kept (or out of reach then) are identified first.
    await this.registry.identifyUnknown();
    const saved = await this.platform.transaction(async (tx) => {
      await this.servers.lockIdentity(tx);
      await this.assertNew(tx, identity);
      return this.servers.insert(tx, {
        name: dto.name,
        host: dto.host.toLowerCase(),
        port: dto.port,
        ...identity,
        poolerHost: dto.poolerHost ? dto.poolerHost.toLowerCase() : null,
        poolerPort: dto.poolerHost ? dto.poolerPort! : null,
        adminUsername: dto.adminUsername,
        adminPassword: dto.adminPassword ? this.secrets.encrypt(dto.adminPassword) : null,
        maxClients: dto.maxClients ?? 1000,
        maxConnections: dto.maxConnections ?? 100,
        state: dto.state ?? 'active',
      });
    });
    await this.registry.changed();
    return this.get(saved.id);
  }

  /** Writes the fields given; the server's wal_level is read again (kept as it was when out of reach). */
  update(id: number, dto: UpdateDatabaseServerDto) {
    return this.change(id, dto, true);
  }

  /**
   * A draining server keeps its clients and takes no new one (moves included). A server that is
   * down can be drained at once: nothing is read from it.
   */
  async drain(id: number) {
    return this.change(id, { state: 'draining' }, false);
  }

  private async change(id: number, dto: UpdateDatabaseServerDto, readWalLevel: boolean) {
    const server = await this.find(id);
    if (dto.name !== undefined) await this.assertFree(dto.name, undefined, id);
    if (dto.name !== undefined) server.name = dto.name;
    if (dto.adminUsername !== undefined) server.adminUsername = dto.adminUsername;
    if (dto.adminPassword !== undefined) server.adminPassword = this.secrets.encrypt(dto.adminPassword);
    if (dto.adminUsername !== undefined || dto.adminPassword !== undefined) {
      await this.reidentify(server);
    } else if (readWalLevel) {
      await this.rereadWalLevel(server);
    }
    if (dto.maxClients !== undefined) server.maxClients = dto.maxClients;
    if (dto.maxConnections !== undefined) server.maxConnections = dto.maxConnections;
    if (dto.state !== undefined) server.state = dto.state;
    if (dto.poolerHost !== undefined || dto.poolerPort !== undefined) {
      // Validation lets through both or neither set; one null alone clears the pair.
      server.poolerHost = dto.poolerHost ? dto.poolerHost.toLowerCase() : null;
      server.poolerPort = dto.poolerHost ? dto.poolerPort! : null;
    }
    await this.servers.save(null, server);
    await this.registry.changed();
    return this.get(id);
  }

  /**
   * The server for a new client, inside the transaction that saves it: the one named (400 when
   * unknown, 409 when not active or full), else the active server with the most room (fewest
   * clients for its capacity). 409 when no active server has room.
   */
  async place(tx: EntityManager, serverId?: number): Promise<DatabaseServer> {
    await this.servers.lockPlacement(tx);
    const places = await this.servers.places(tx);
    const servers = await this.servers.all(tx);
    if (serverId !== undefined) {
      const named = servers.find((s) => s.id === serverId);
      if (!named) throw AppError.badRequest(`No database server ${serverId}`, 'VALIDATION_ERROR');
      this.assertTakes(named, places.get(named.id) ?? 0);
      return named;
    }
    const open = servers
      .filter((s) => s.state === 'active' && (places.get(s.id) ?? 0) < s.maxClients)
      .sort((a, b) => fill(a, places) - fill(b, places) || a.id - b.id);
    if (!open.length) throw AppError.conflict('No active database server has room for a client');
    return open[0];
  }

  /** 409 unless the server is active with room for one more client. */
  assertTakes(server: DatabaseServer, clients: number) {
    if (server.state !== 'active') throw AppError.conflict(`Database server ${server.id} is ${server.state}`);
    if (clients >= server.maxClients) throw AppError.conflict(`Database server ${server.id} is full`);
  }

  /**
   * 409 when the identities stored say `server` is the server `currentId` (the move checks the live
   * ones again: a stored identity may be missing or stale).
   */
  async assertOtherServer(currentId: number | null, server: DatabaseServer) {
    const current = currentId === null ? null : await this.servers.byId(currentId);
    if (current && sameServer(this.registry.storedIdentity(current), this.registry.storedIdentity(server))) {
      throw AppError.conflict('That is the PostgreSQL server the client is on, under another name');
    }
  }

  async find(id: number): Promise<DatabaseServer> {
    const server = await this.servers.byId(id);
    if (!server) throw AppError.notFound('Database server');
    return server;
  }

  private view(server: DatabaseServer, places: Map<number, number>, usage: Map<number, ServerUsage | null>) {
    return toDatabaseServerView(
      server,
      places.get(server.id) ?? 0,
      server.id === this.registry.defaultServerId(),
      usage.get(server.id) ?? null,
    );
  }

  /**
   * The server's identity through a new login: 400 when the login is refused, 409 when it is
   * another registered server. Out of reach, the update is kept with the identity known before
   * (a server that is down can still be drained).
   */
  private async reidentify(server: DatabaseServer) {
    let identity: ServerFacts;
    try {
      identity = await this.identify(this.adminLogin(server));
    } catch (err) {
      if (err instanceof AppError && err.status === 503) return;
      throw err;
    }
    await this.assertNew(null, identity, server.id);
    Object.assign(server, identity);
  }

  /** The server's wal_level, when the server that answers is the one registered; else kept as it was. */
  private async rereadWalLevel(server: DatabaseServer) {
    try {
      const facts = await this.serverAdmin.factsAt(this.adminLogin(server));
      const stored = this.registry.storedIdentity(server);
      if (!stored || sameServer(stored, facts)) server.logicalReplication = facts.logicalReplication;
    } catch (err) {
      this.logger.warn(`Database server ${server.id}: wal_level not read (${(err as Error).message})`);
    }
  }

  private adminLogin(server: DatabaseServer): DbTarget {
    const password = server.adminPassword ? this.secrets.decrypt(server.adminPassword) : undefined;
    return this.registry.loginTarget(
      { host: server.host, port: server.port, database: 'postgres' },
      server.adminUsername,
      password,
    );
  }

  /**
   * The server's identity and wal_level: 503 (Retry-After) when it is out of reach, 400 when it
   * refuses the login or the query.
   */
  private async identify(admin: DbTarget): Promise<ServerFacts> {
    try {
      return await this.serverAdmin.factsAt(admin);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      this.logger.warn(`Database server ${admin.host}:${admin.port}: ${(err as Error).message}`);
      if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
        throw AppError.badRequest(
          `The database server refused the administrative login or the identity query (${code})`,
        );
      }
      throw new AppError(
        503,
        'SERVICE_UNAVAILABLE',
        'The database server could not be reached to identify it; try again',
        undefined,
        { 'Retry-After': '5' },
      );
    }
  }

  /** 409 when a registered server (other than `exceptId`) is the one with that identity. */
  private async assertNew(tx: EntityManager | null, identity: ServerIdentity, exceptId?: number) {
    const same = await this.servers.withIdentity(tx, identity, exceptId);
    if (same) {
      throw AppError.conflict(
        `That PostgreSQL server is registered already, as database server ${same.id} ("${same.name}")`,
      );
    }
  }

  private async assertFree(name: string, address?: { host: string; port: number }, exceptId?: number) {
    if (await this.servers.nameTaken(name, exceptId))
      throw AppError.conflict(`Database server name "${name}" is taken`);
    if (!address) return;
    if (await this.servers.addressTaken(address))
      throw AppError.conflict('A database server at that address is registered');
  }
}

const fill = (server: DatabaseServer, places: Map<number, number>) =>
  (places.get(server.id) ?? 0) / Math.max(1, server.maxClients);
