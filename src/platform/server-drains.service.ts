import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { ClientsRepository } from '../tenancy/clients.repository';
import { DatabaseServersService } from './database-servers.service';
import { ServerDrainQueue } from './server-drain.queue';
import { ServerDrains, ServerDrainView } from './server-drains';

/** A running drain whose job is gone (not waiting nor running) for this long was lost: it may be replaced. */
const LOST_AFTER_MS = 60_000;

/** Starts drains with moves (ServerDrainer runs them) and answers their progress. */
@Injectable()
export class ServerDrainsService {
  private readonly logger = new Logger(ServerDrainsService.name);

  constructor(
    private readonly servers: DatabaseServersService,
    private readonly clients: ClientsRepository,
    private readonly drains: ServerDrains,
    private readonly queue: ServerDrainQueue,
  ) {}

  /**
   * Sets the server draining and queues the moves of its clients: 404 unknown server, 409 when a
   * drain with moves of it runs, 503 when the job store is unreachable.
   */
  async start(serverId: number): Promise<{ data: ServerDrainView }> {
    await this.servers.find(serverId);
    const total = (await this.clients.onServer(serverId)).length;
    const drain: ServerDrainView = {
      serverId,
      moveClients: true,
      status: 'running',
      total,
      moved: 0,
      failed: 0,
      remaining: total,
      currentClientId: null,
      currentJobId: null,
      startedAt: new Date().toISOString(),
      finishedAt: null,
      failures: [],
    };
    const claimed = await this.unavailableOnFailure(async () => {
      if (await this.drains.claim(drain)) return true;
      return (await this.lost(serverId)) && this.drains.claim(drain, true);
    });
    if (!claimed) throw AppError.conflict(`A drain with moves of database server ${serverId} is running`);
    try {
      await this.servers.drain(serverId);
      await this.unavailableOnFailure(() => this.queue.enqueue({ serverId }));
    } catch (err) {
      const failed = { ...drain, status: 'failed' as const, finishedAt: new Date().toISOString() };
      await this.drains.save(failed).catch(() => undefined);
      throw err;
    }
    return { data: drain };
  }

  /** The server's last drain with moves: 404 when it never had one. */
  async get(serverId: number): Promise<{ data: ServerDrainView }> {
    await this.servers.find(serverId);
    const drain = await this.unavailableOnFailure(() => this.drains.get(serverId));
    if (!drain) throw AppError.notFound('Drain with moves of that database server');
    return { data: drain };
  }

  /** The stored drain runs, yet no job of it waits or runs, and it began a while ago. */
  private async lost(serverId: number): Promise<boolean> {
    const stored = await this.drains.get(serverId);
    if (stored?.status !== 'running') return false;
    if (Date.now() - Date.parse(stored.startedAt) < LOST_AFTER_MS) return false;
    return !(await this.queue.isLive(serverId));
  }

  private async unavailableOnFailure<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      this.logger.error(`Database server drain: ${(err as Error).message}`);
      throw new AppError(503, 'SERVICE_UNAVAILABLE', 'The job store is unavailable; try again', undefined, {
        'Retry-After': '5',
      });
    }
  }
}
