import { Injectable } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { withAdminConnection } from '../database/data-source-factory';
import { ServerAdminRepository } from '../database/server-admin.repository';
import { DatabaseServerRegistry } from '../tenancy/database-server-registry';
import { Client } from '../tenancy/entities/client.entity';
import { DatabaseServer } from '../tenancy/entities/database-server.entity';
import { MoveMode } from './move-jobs';

const CONNECT_TIMEOUT_MS = 5_000;

/** Which way a client moves: online where both servers publish logical changes, else by copy. */
@Injectable()
export class MoveModes {
  constructor(
    private readonly servers: DatabaseServerRegistry,
    private readonly serverAdmin: ServerAdminRepository,
  ) {}

  /**
   * `requested` when both servers allow it (409 for online otherwise, 503 when one cannot be
   * asked); the default is online where possible, else copy.
   */
  async choose(client: Client, target: DatabaseServer, requested?: MoveMode): Promise<MoveMode> {
    if (requested === 'copy') return 'copy';
    const both = Promise.all([
      this.logical(client.serverId, client.databaseHost, client.databasePort),
      this.logical(target.id, target.host, target.port),
    ]);
    // By default a server that cannot be asked is moved by copy (whose job then says what failed).
    const [from, to] = requested === 'online' ? await both : await both.catch(() => [false, false]);
    if (from && to) return 'online';
    if (requested !== 'online') return 'copy';
    const which = from ? 'target' : to ? 'source' : 'source and target';
    throw AppError.conflict(
      `An online move needs wal_level=logical on both servers; the ${which} server runs without it (use mode "copy")`,
    );
  }

  private async logical(serverId: number | null, host: string, port: number): Promise<boolean> {
    const admin = await this.servers.adminTarget(serverId, host, port, 'postgres');
    try {
      return await withAdminConnection(
        admin,
        (pg) => this.serverAdmin.logicalReplication(pg),
        CONNECT_TIMEOUT_MS,
      );
    } catch {
      throw new AppError(
        503,
        'SERVICE_UNAVAILABLE',
        'A database server of the move cannot be reached; try again',
        undefined,
        {
          'Retry-After': '5',
        },
      );
    }
  }
}
