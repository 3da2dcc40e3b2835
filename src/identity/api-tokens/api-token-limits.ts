import { Principal } from '../../access/principal';
import { AppError } from '../../common/errors/app-error';

/**
 * What only a signed-in user may do, never an API token (full-access or not): create API tokens,
 * create users, change a user's sign-in identifiers (e-mail, username) or role. A token that could
 * would mint a credential of its own and outlive its revocation.
 */
export function refuseApiToken(principal: Principal, action: string): void {
  if (principal.via !== 'jwt') throw AppError.forbidden(`An API token cannot ${action}`);
}
