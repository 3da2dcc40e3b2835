import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { ClientsRepository } from '../tenancy/clients.repository';
import { DatabaseServersRepository } from '../tenancy/database-servers.repository';
import { ClientMoveQueue } from './client-move.queue';
import { MIGRATABLE } from './clients.service';
import { DatabaseServersService } from './database-servers.service';
import { MoveJobs, MoveMode } from './move-jobs';
import { MoveModes } from './move-mode';

/** Starts client moves and answers their progress. */
@Injectable()
export class ClientMovesService {
  private readonly logger = new Logger(ClientMovesService.name);

  constructor(
    private readonly clients: ClientsRepository,
    private readonly servers: DatabaseServersService,
    private readonly serverRows: DatabaseServersRepository,
    private readonly jobs: MoveJobs,
    private readonly queue: ClientMoveQueue,
    private readonly modes: MoveModes,
  ) {}

  /**
   * 404 unknown client; 400 unknown server; 409 when the client is not provisioned, already there,
   * being moved or restored, or the server is not active or full. Answers the job id at once.
   */
  async start(clientId: number, serverId: number, requested?: MoveMode) {
    const client = await this.clients.byId(clientId);
    if (!client || client.status === 'DELETED') throw AppError.notFound('Client');
    if (!MIGRATABLE.includes(client.status)) {
      throw AppError.conflict(`Client is ${client.status}; only provisioned clients can be moved`);
    }
    const server = await this.serverRows.byId(serverId);
    if (!server) throw AppError.badRequest(`No database server ${serverId}`, 'VALIDATION_ERROR');
    if (client.restoringSince) throw AppError.conflict('The client is being restored from a backup');
    if (client.serverId === server.id) throw AppError.conflict('The client is on that server already');
    await this.servers.assertOtherServer(client.serverId, server);
    const places = await this.serverRows.places(null);
    this.servers.assertTakes(server, places.get(server.id) ?? 0);
    const mode = await this.modes.choose(client, server, requested);
    const job = await this.unavailableOnFailure(() =>
      this.jobs.create({
        clientId,
        identifier: client.identifier,
        fromServerId: client.serverId,
        toServerId: server.id,
        mode,
      }),
    );
    if (!job) throw AppError.conflict('A move of this client is under way');
    await this.unavailableOnFailure(async () => {
      try {
        await this.queue.enqueue({ kind: 'move', jobId: job.jobId });
      } catch (err) {
        await this.jobs
          .save({ ...job, status: 'failed', error: 'The job queue is unavailable', finishedAt: new Date() })
          .catch(() => undefined);
        throw err;
      }
    });
    return { data: { jobId: job.jobId } };
  }

  async get(jobId: string) {
    const job = await this.unavailableOnFailure(() => this.jobs.get(jobId));
    if (!job) throw AppError.notFound('Move job');
    return { data: MoveJobs.view(job) };
  }

  private async unavailableOnFailure<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      this.logger.error(`Client move: ${(err as Error).message}`);
      throw new AppError(503, 'SERVICE_UNAVAILABLE', 'The job queue is unavailable; try again', undefined, {
        'Retry-After': '5',
      });
    }
  }
}
