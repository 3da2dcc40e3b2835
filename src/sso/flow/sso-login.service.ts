import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { LoginSuccess } from '../../identity';
import { IdentityProvider } from '../entities/identity-provider.entity';
import { ExchangeCodes } from './exchange-codes';
import { ExternalIdentity } from './external-identity';
import { bindingMatches } from './link-binding';
import { SsoErrors } from '../sso-errors';
import { SsoAccountsService } from './sso-accounts.service';
import { StateClaims } from './sso-state.service';

/** What a callback answers: the login response as JSON, or a 302 to the allow-listed redirect. */
export type SsoOutcome = { kind: 'json'; body: unknown } | { kind: 'redirect'; url: string };

const withParams = (target: string, params: Record<string, string>) => {
  const url = new URL(target);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
};

/** The end of every SSO flow: sign in (or link), issue our tokens, audit, answer. */
@Injectable()
export class SsoLoginService {
  constructor(
    private readonly accounts: SsoAccountsService,
    private readonly codes: ExchangeCodes,
    private readonly loginSuccess: LoginSuccess,
  ) {}

  async complete(
    provider: IdentityProvider,
    identity: ExternalIdentity,
    claims: Pick<StateClaims, 'purpose' | 'userId' | 'redirectUri' | 'bind'>,
    linkCookie?: string,
  ): Promise<SsoOutcome> {
    if (claims.purpose === 'link') {
      if (!bindingMatches(claims.bind, linkCookie)) {
        throw SsoErrors.invalidState('This account link was not started in this browser');
      }
      await this.accounts.link(provider, identity, claims.userId!);
      const body = { data: { linked: true, providerId: provider.id, subject: identity.subject } };
      if (claims.redirectUri) {
        return { kind: 'redirect', url: withParams(claims.redirectUri, { linked: String(provider.id) }) };
      }
      return { kind: 'json', body };
    }
    const user = await this.accounts.signIn(provider, identity);
    // A user enrolled in two-factor authentication answers the same challenge as after a password.
    const login = await this.loginSuccess.firstFactor(user, 'sso');
    if (!claims.redirectUri) return { kind: 'json', body: login };
    const code = await this.codes.issue(login);
    return { kind: 'redirect', url: withParams(claims.redirectUri, { code }) };
  }

  /** Audits a failure; with an allow-listed redirect, answers it there as ?error=CODE. */
  async fail(
    provider: IdentityProvider | null,
    err: unknown,
    redirectUri: string | undefined,
    who?: string | null,
  ): Promise<SsoOutcome> {
    const code = err instanceof AppError ? err.code : 'SSO_LOGIN_FAILED';
    const message = err instanceof Error ? err.message : 'SSO login failed';
    await this.accounts.recordFailure(provider, code, message, who);
    if (redirectUri && err instanceof AppError && err.status < 500) {
      return { kind: 'redirect', url: withParams(redirectUri, { error: code, error_description: message }) };
    }
    throw err;
  }
}
