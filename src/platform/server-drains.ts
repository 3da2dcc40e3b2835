import { Injectable } from '@nestjs/common';
import { RedisService } from '../redis/redis.service';

export const DRAIN_STATES = ['running', 'done', 'failed'] as const;
export type DrainState = (typeof DRAIN_STATES)[number];

export interface DrainFailure {
  clientId: number;
  identifier: string;
  error: string;
}

/** The progress of a server's drain with moves, as the API answers it. */
export interface ServerDrainView {
  serverId: number;
  moveClients: true;
  status: DrainState;
  /** Clients moved, failed, and still to move (the one being moved included). */
  total: number;
  moved: number;
  failed: number;
  remaining: number;
  currentClientId: number | null;
  currentJobId: string | null;
  startedAt: string;
  finishedAt: string | null;
  failures: DrainFailure[];
}

/**
 * Writes the drain (ARGV[1]) unless the one stored is running; with ARGV[2] = '1', replaces a
 * running one too (its worker is gone). Answers 1 when written.
 */
const CLAIM_SCRIPT = `
  local current = redis.call('GET', KEYS[1])
  if current and ARGV[2] ~= '1' and cjson.decode(current).status == 'running' then return 0 end
  redis.call('SET', KEYS[1], ARGV[1])
  return 1`;

/**
 * The last drain with moves of each server, one Redis key per server beside the move jobs'
 * progress, so every replica answers it. Kept until the server's next drain replaces it: at most one
 * key per registered server.
 */
@Injectable()
export class ServerDrains {
  constructor(private readonly redis: RedisService) {}

  /** Stores a new running drain; false when one of the server runs (unless `replaceRunning`). */
  async claim(drain: ServerDrainView, replaceRunning = false): Promise<boolean> {
    const written = await this.redis.client.eval(
      CLAIM_SCRIPT,
      1,
      this.key(drain.serverId),
      JSON.stringify(drain),
      replaceRunning ? '1' : '0',
    );
    return written === 1;
  }

  async save(drain: ServerDrainView): Promise<void> {
    await this.redis.client.set(this.key(drain.serverId), JSON.stringify(drain));
  }

  async get(serverId: number): Promise<ServerDrainView | null> {
    const raw = await this.redis.client.get(this.key(serverId));
    return raw ? (JSON.parse(raw) as ServerDrainView) : null;
  }

  private key(serverId: number) {
    return this.redis.key('database-server-drains', serverId);
  }
}
