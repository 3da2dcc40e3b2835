import type { Principal } from './principal';

/**
 * Turns an `Authorization` header into the caller, for code outside the guarded routes (the queue
 * board, the health report). Identity provides it; the kernel only names it.
 */
export abstract class BearerAuthenticator {
  abstract authenticate(authorization: string | undefined): Promise<Principal>;
}
