import { Injectable, OnModuleDestroy } from '@nestjs/common';
import Bull from 'bull';
import { AppConfig } from '../config/app-config';
import { openJobQueue, TenantJob, tenantJobData } from '../tenancy/tenant-jobs';

export const PROVISIONING_QUEUE = 'provisioning';

export interface ProvisionJob extends TenantJob {
  clientId: number;
}

/** The queue of client provisionings; its processor runs only where QUEUE_PROCESSORS_ENABLED. */
@Injectable()
export class ProvisioningQueue implements OnModuleDestroy {
  readonly queue: Bull.Queue<ProvisionJob>;

  constructor(config: AppConfig) {
    this.queue = openJobQueue<ProvisionJob>(config, PROVISIONING_QUEUE);
  }

  async onModuleDestroy() {
    await this.queue.close().catch(() => undefined);
  }

  /** Queues the provisioning of a client under the current (platform administrator's) tenant. */
  async enqueue(clientId: number): Promise<void> {
    await this.queue.add(
      { tenant: tenantJobData(), clientId },
      { attempts: 1, removeOnComplete: 100, removeOnFail: 100 },
    );
  }
}
