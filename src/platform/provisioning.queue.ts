export const PROVISIONING_QUEUE = 'provisioning';

export interface ProvisionJob {
  clientId: number;
}
