import { AppError } from '../common/errors/app-error';

/** The SSO failures, in envelope A (docs/sso.md). */
export const SsoErrors = {
  invalidState: (message = 'Invalid or expired SSO state') => new AppError(400, 'INVALID_STATE', message),
  redirectNotAllowed: () =>
    new AppError(400, 'SSO_REDIRECT_NOT_ALLOWED', 'redirectUri is not an allowed redirect target'),
  providerNotFound: () => new AppError(404, 'NOT_FOUND', 'Identity provider not found'),
  providerDisabled: () => new AppError(400, 'SSO_PROVIDER_DISABLED', 'Identity provider is disabled'),
  misconfigured: (message: string) => new AppError(400, 'SSO_PROVIDER_MISCONFIGURED', message),
  unreachable: (message: string) => new AppError(502, 'SSO_PROVIDER_UNREACHABLE', message),
  loginFailed: (message: string) => new AppError(401, 'SSO_LOGIN_FAILED', message),
  samlInvalid: (message: string) => new AppError(401, 'SSO_SAML_INVALID', message),
  samlMalformed: (message: string) => new AppError(400, 'SSO_SAML_MALFORMED', message),
  samlReplay: () => new AppError(401, 'SSO_SAML_REPLAY', 'This SAML response was already used'),
  notProvisioned: (message: string) => new AppError(403, 'SSO_USER_NOT_PROVISIONED', message),
  domainNotAllowed: () =>
    new AppError(403, 'SSO_DOMAIN_NOT_ALLOWED', 'The e-mail domain is not allowed for this provider'),
  accountNotLinked: () =>
    new AppError(
      403,
      'SSO_ACCOUNT_NOT_LINKED',
      'An account with this e-mail exists but is not linked to this provider; sign in and link it',
    ),
  userBlocked: () => new AppError(403, 'SSO_USER_BLOCKED', 'This account is blocked'),
  userLimit: () => new AppError(403, 'SSO_USER_LIMIT_REACHED', 'The client has reached its user limit'),
  alreadyLinked: () =>
    new AppError(409, 'CONFLICT', 'This identity-provider account is already linked to another user'),
  invalidCode: () => new AppError(400, 'INVALID_CODE', 'Invalid or expired exchange code'),
};
