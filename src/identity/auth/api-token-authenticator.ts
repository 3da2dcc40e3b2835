import type { Principal } from '../../access/principal';

/** Implemented by the API-token module; the guard hands it every `Bearer svc_...` credential. */
export interface ApiTokenAuthenticator {
  authenticate(token: string): Promise<Principal>;
}

export const API_TOKEN_AUTHENTICATOR = Symbol('API_TOKEN_AUTHENTICATOR');
export const API_TOKEN_PREFIX = 'svc_';
