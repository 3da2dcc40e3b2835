import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { TenantQueue } from '../tenancy/tenant-queue';

export const PROVISIONING_QUEUE = 'provisioning';

export interface ProvisionJob {
  clientId: number;
}

/**
 * The queue of client provisionings, one attempt each (a failed run leaves the client PENDING for
 * the administrator to provision again); the last 100 finished jobs stay on the dashboard.
 */
@Injectable()
export class ProvisioningQueue extends TenantQueue<ProvisionJob> {
  constructor(config: AppConfig) {
    super(config, { name: PROVISIONING_QUEUE, attempts: 1, keepFinished: 100 });
  }

  /** Queues the provisioning of a client under the current (platform administrator's) tenant. */
  enqueue(clientId: number): Promise<void> {
    return this.add([{ clientId }]);
  }
}
