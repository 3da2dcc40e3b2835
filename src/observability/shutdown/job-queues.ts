import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import Bull from 'bull';

/**
 * Every Bull queue of the application, found among its providers: a provider that keeps its queue as
 * `queue` (every TenantQueue: provisioning, webhooks, OCR, ...) is listed without registering it
 * anywhere else.
 */
@Injectable()
export class JobQueues {
  constructor(private readonly discovery: DiscoveryService) {}

  all(): Bull.Queue[] {
    const queues = new Set<Bull.Queue>();
    for (const wrapper of this.discovery.getProviders()) {
      const queue = (wrapper.instance as { queue?: unknown } | undefined)?.queue;
      if (queue instanceof Bull) queues.add(queue);
    }
    return [...queues].sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Stops taking jobs in this process and waits for the running ones, at most `timeoutMs`; true when
   * they all finished. A job still running when the process exits keeps its lock until it expires,
   * then Bull hands it to another worker (stalled), so it is neither lost nor run twice at once.
   */
  async stopTakingJobs(timeoutMs: number): Promise<boolean> {
    const paused = Promise.all(this.all().map((queue) => queue.pause(true, false))).then(() => true);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([paused, expired]);
    } finally {
      clearTimeout(timer);
    }
  }
}
