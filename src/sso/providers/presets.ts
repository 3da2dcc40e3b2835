import type { AttributeMapping, ProviderType } from '../entities/identity-provider.entity';

export interface ProviderPreset {
  key: string;
  label: string;
  providerType: ProviderType;
  /** Discovery document address; `{placeholders}` must be replaced by the admin. */
  discoveryUri?: string;
  authorizationUri?: string;
  tokenUri?: string;
  userInfoUri?: string;
  scopes: string;
  attributeMapping: AttributeMapping;
  /** Fields the admin must supply when creating a provider from this preset. */
  requiredFields: string[];
  /** Placeholders in discoveryUri and what they mean. */
  placeholders: Record<string, string>;
  documentation: string;
}

const OIDC_MAPPING: AttributeMapping = {
  email: 'email',
  firstName: 'given_name',
  lastName: 'family_name',
  displayName: 'name',
  phoneNumber: 'phone_number',
};

export const PRESETS: ProviderPreset[] = [
  {
    key: 'MICROSOFT_ENTRA_ID',
    label: 'Microsoft Entra ID (Azure AD)',
    providerType: 'OIDC',
    discoveryUri: 'https://login.microsoftonline.com/{tenantId}/v2.0/.well-known/openid-configuration',
    scopes: 'openid profile email',
    attributeMapping: { ...OIDC_MAPPING, email: 'email' },
    requiredFields: ['clientId', 'clientSecret', 'discoveryUri'],
    placeholders: { tenantId: 'Directory (tenant) id of the app registration' },
    documentation: 'https://learn.microsoft.com/entra/identity-platform/v2-protocols-oidc',
  },
  {
    key: 'GOOGLE',
    label: 'Google Workspace',
    providerType: 'OIDC',
    discoveryUri: 'https://accounts.google.com/.well-known/openid-configuration',
    scopes: 'openid profile email',
    attributeMapping: OIDC_MAPPING,
    requiredFields: ['clientId', 'clientSecret'],
    placeholders: {},
    documentation: 'https://developers.google.com/identity/openid-connect/openid-connect',
  },
  {
    key: 'OKTA',
    label: 'Okta',
    providerType: 'OIDC',
    discoveryUri: 'https://{oktaDomain}/oauth2/default/.well-known/openid-configuration',
    scopes: 'openid profile email',
    attributeMapping: OIDC_MAPPING,
    requiredFields: ['clientId', 'clientSecret', 'discoveryUri'],
    placeholders: { oktaDomain: 'Your Okta org domain, e.g. acme.okta.com' },
    documentation: 'https://developer.okta.com/docs/reference/api/oidc/',
  },
  {
    key: 'AUTH0',
    label: 'Auth0',
    providerType: 'OIDC',
    discoveryUri: 'https://{auth0Domain}/.well-known/openid-configuration',
    scopes: 'openid profile email',
    attributeMapping: OIDC_MAPPING,
    requiredFields: ['clientId', 'clientSecret', 'discoveryUri'],
    placeholders: { auth0Domain: 'Your Auth0 tenant domain, e.g. acme.eu.auth0.com' },
    documentation:
      'https://auth0.com/docs/get-started/applications/configure-applications-with-oidc-discovery',
  },
  {
    key: 'KEYCLOAK',
    label: 'Keycloak',
    providerType: 'OIDC',
    discoveryUri: 'https://{keycloakHost}/realms/{realm}/.well-known/openid-configuration',
    scopes: 'openid profile email',
    attributeMapping: OIDC_MAPPING,
    requiredFields: ['clientId', 'clientSecret', 'discoveryUri'],
    placeholders: { keycloakHost: 'Keycloak server host', realm: 'Realm name' },
    documentation: 'https://www.keycloak.org/docs/latest/securing_apps/#_oidc',
  },
  {
    key: 'GITHUB',
    label: 'GitHub (OAuth 2.0)',
    providerType: 'OAUTH2',
    authorizationUri: 'https://github.com/login/oauth/authorize',
    tokenUri: 'https://github.com/login/oauth/access_token',
    userInfoUri: 'https://api.github.com/user',
    scopes: 'read:user user:email',
    attributeMapping: { email: 'email', displayName: 'name' },
    requiredFields: ['clientId', 'clientSecret'],
    placeholders: {},
    documentation: 'https://docs.github.com/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps',
  },
];

export const PRESET_KEYS = PRESETS.map((p) => p.key);

export const findPreset = (key: string | null | undefined) => PRESETS.find((p) => p.key === key);
