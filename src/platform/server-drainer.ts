import { Injectable, Logger } from '@nestjs/common';
import { ClientsRepository } from '../tenancy/clients.repository';
import { Client } from '../tenancy/entities/client.entity';
import { PlatformDatabase } from '../tenancy/platform-database';
import { ClientMovesService } from './client-moves.service';
import { DatabaseServersService } from './database-servers.service';
import { MoveJobs } from './move-jobs';
import { ServerDrains, ServerDrainView } from './server-drains';

/** How often a drain asks how its current move goes. */
const MOVE_POLL_MS = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Moves every client off a draining server, one at a time: each goes where provisioning would place
 * a new client, through an ordinary move, and the next starts once that move ended. A client that
 * cannot be placed or moved is recorded as failed and the drain goes on. The progress is stored
 * after every step (ServerDrains); a drain run again (its worker was lost) resumes from it.
 */
@Injectable()
export class ServerDrainer {
  private readonly logger = new Logger(ServerDrainer.name);

  constructor(
    private readonly clients: ClientsRepository,
    private readonly servers: DatabaseServersService,
    private readonly platform: PlatformDatabase,
    private readonly moves: ClientMovesService,
    private readonly moveJobs: MoveJobs,
    private readonly drains: ServerDrains,
  ) {}

  async run(serverId: number): Promise<void> {
    let drain = await this.drains.get(serverId);
    if (!drain || drain.status !== 'running') return;
    const tried = new Set(drain.failures.map((f) => f.clientId));
    try {
      if (drain.currentClientId !== null && drain.currentJobId !== null) {
        const client = await this.clients.byId(drain.currentClientId);
        tried.add(drain.currentClientId);
        drain = await this.record(
          drain,
          client,
          drain.currentClientId,
          await this.outcome(drain.currentJobId),
        );
      }
      for (;;) {
        const left = (await this.clients.onServer(serverId)).filter((c) => !tried.has(c.id));
        drain = { ...drain, total: drain.moved + drain.failed + left.length, remaining: left.length };
        if (!left.length) break;
        tried.add(left[0].id);
        drain = await this.moveOne(drain, left[0]);
      }
      drain.status = drain.failed ? 'failed' : 'done';
    } catch (err) {
      this.logger.error(`Drain of database server ${serverId} stopped: ${messageOf(err)}`);
      drain.status = 'failed';
    }
    await this.drains.save({
      ...drain,
      currentClientId: null,
      currentJobId: null,
      finishedAt: new Date().toISOString(),
    });
  }

  /** Places the client as provisioning would, starts its move and waits for it to end. */
  private async moveOne(drain: ServerDrainView, client: Client): Promise<ServerDrainView> {
    let jobId: string;
    try {
      const target = await this.platform.transaction((tx) => this.servers.place(tx));
      jobId = (await this.moves.start(client.id, target.id)).data.jobId;
    } catch (err) {
      return this.record(drain, client, client.id, { error: messageOf(err) });
    }
    const moving = { ...drain, currentClientId: client.id, currentJobId: jobId };
    await this.drains.save(moving);
    return this.record(moving, client, client.id, await this.outcome(jobId));
  }

  /** Counts the client moved, or failed with `error`, and stores the progress. */
  private async record(
    drain: ServerDrainView,
    client: Client | null,
    clientId: number,
    outcome: { error?: string },
  ): Promise<ServerDrainView> {
    const next: ServerDrainView = {
      ...drain,
      remaining: Math.max(0, drain.remaining - 1),
      currentClientId: null,
      currentJobId: null,
    };
    if (outcome.error === undefined) next.moved++;
    else {
      next.failed++;
      next.failures = [
        ...drain.failures,
        { clientId, identifier: client?.identifier ?? String(clientId), error: outcome.error },
      ];
    }
    await this.drains.save(next);
    return next;
  }

  /** Waits for the move job to end; a job store that does not answer is asked again. */
  private async outcome(jobId: string): Promise<{ error?: string }> {
    for (;;) {
      let job: Awaited<ReturnType<MoveJobs['get']>> | undefined;
      try {
        job = await this.moveJobs.get(jobId);
      } catch (err) {
        this.logger.warn(`Move job ${jobId}: progress not read (${messageOf(err)})`);
      }
      if (job === null) return { error: 'The move job is gone' };
      if (job?.status === 'done') return {};
      if (job?.status === 'failed') return { error: job.error ?? 'The move failed' };
      await sleep(MOVE_POLL_MS);
    }
  }
}
