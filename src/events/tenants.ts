import { PerClientRunner } from '../tenancy/per-client-runner';
import { MASTER_CLIENT, TenantClient } from '../tenancy/tenant-context';
import { TenantPools } from '../tenancy/tenant-pools';

/** Every tenant database background work must visit: the master (itself a tenant) and each active client. */
export function allTenants(runner: PerClientRunner): TenantClient[] {
  const clients = runner.tenants().filter((c) => !c.isMaster);
  return [MASTER_CLIENT, ...clients];
}

/**
 * Tenants a periodic pass visits: all of them on a full pass; otherwise the master and the clients
 * whose pool this process has open, so frequent passes neither open pools nor keep idle ones warm
 * (the connection ceiling and idle closing stay in charge).
 */
export function tenantsToVisit(runner: PerClientRunner, pools: TenantPools, full: boolean): TenantClient[] {
  const all = allTenants(runner);
  if (full) return all;
  const open = new Set(pools.openClients());
  return all.filter((c) => c.isMaster || open.has(c.identifier));
}
