import createFetchClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, paths };
/** The document's named shapes: `Schemas['UnitDto']`. */
export type Schemas = components['schemas'];
export type ApiClient = Client<paths>;

export interface ApiClientOptions extends ClientOptions {
  /** A JWT from /auth/local or an API token (`svc_...`), sent as `Authorization: Bearer`. */
  token?: string;
  /** The client (company database) to talk to, sent as `X-Client-ID`. */
  clientId?: string;
}

/**
 * A client whose paths, parameters, bodies and answers are typed by the API's OpenAPI document:
 * `await api.GET('/api/units', { params: { query: { page: 2 } } })` gives `{ data }` or `{ error }`.
 */
export function createClient({ token, clientId, headers, ...options }: ApiClientOptions): ApiClient {
  return createFetchClient<paths>({
    ...options,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(clientId ? { 'X-Client-ID': clientId } : {}),
      ...(headers as Record<string, string> | undefined),
    },
  });
}
