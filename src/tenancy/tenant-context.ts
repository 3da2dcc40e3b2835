import { AsyncLocalStorage } from 'node:async_hooks';
import type { Principal } from '../access/principal';

/** The database a unit of work talks to: the master database, or one client's. */
export interface TenantClient {
  /** Client identifier; `master` for the master database. */
  identifier: string;
  id: number | null;
  isMaster: boolean;
}

export interface TenantStore {
  requestId: string;
  client: TenantClient;
  /** `public` or a `sandbox_*` schema, validated before it is stored here. */
  schema: string;
  principal?: Principal;
  ip?: string;
  userAgent?: string;
}

export const MASTER_CLIENT: TenantClient = Object.freeze({ identifier: 'master', id: null, isMaster: true });
export const PRODUCTION_SCHEMA = 'public';

class TenantContext {
  private readonly storage = new AsyncLocalStorage<TenantStore>();

  run<T>(store: TenantStore, fn: () => T): T {
    return this.storage.run(store, fn);
  }

  /** The current tenant; throws when called outside a request or job that entered one. */
  get(): TenantStore {
    const store = this.storage.getStore();
    if (!store) throw new Error('No tenant context: enter one with tenantContext.run() first');
    return store;
  }

  peek(): TenantStore | undefined {
    return this.storage.getStore();
  }
}

export const tenantContext = new TenantContext();
