import { tenantContext } from '../../tenancy/tenant-context';

/** The caller's address as Express resolved it with 'trust proxy' (TRUST_PROXY_HOPS). */
export const clientAddress = (): string => tenantContext.get().ip ?? 'unknown';

/** The client (tenant) identifier of the current request. */
export const clientIdentifier = (): string => tenantContext.get().client.identifier;

export const normalizeIdentifier = (identifier: string): string => identifier.trim().toLowerCase();
