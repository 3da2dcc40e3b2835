import type { AttributeMapping, MappedAttribute, ProviderType } from '../entities/identity-provider.entity';

/** Who the identity provider says signed in, after attributeMapping. */
export interface ExternalIdentity {
  subject: string;
  email: string | null;
  /** OIDC `email_verified` true, or an e-mail asserted in a signed SAML assertion. */
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  displayName: string | null;
  phoneNumber: string | null;
  sessionIndex?: string | null;
}

const OIDC_DEFAULTS: Record<MappedAttribute, string[]> = {
  email: ['email'],
  firstName: ['given_name'],
  lastName: ['family_name'],
  displayName: ['name', 'preferred_username'],
  phoneNumber: ['phone_number'],
};

const CLAIMS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims';
const SAML_DEFAULTS: Record<MappedAttribute, string[]> = {
  email: ['email', 'mail', 'emailAddress', `${CLAIMS}/emailaddress`, 'urn:oid:0.9.2342.19200300.100.1.3'],
  firstName: ['firstName', 'givenName', `${CLAIMS}/givenname`, 'urn:oid:2.5.4.42'],
  lastName: ['lastName', 'sn', 'surname', `${CLAIMS}/surname`, 'urn:oid:2.5.4.4'],
  displayName: ['displayName', 'name', 'cn', `${CLAIMS}/name`, 'urn:oid:2.16.840.1.113730.3.1.241'],
  phoneNumber: ['phoneNumber', 'telephoneNumber', 'mobile', 'urn:oid:2.5.4.20'],
};

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,63}$/;

function firstString(value: unknown): string | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (typeof v === 'number') return String(v);
  return typeof v === 'string' && v.trim() ? v.trim().slice(0, 200) : null;
}

/**
 * Reads the mapped attributes from the IdP's claims. Only five attributes are read:
 * anything else the IdP sends (roles, groups, permissions) is ignored.
 */
export function extractIdentity(
  type: ProviderType,
  subject: string,
  claims: Record<string, unknown>,
  mapping: AttributeMapping,
  samlNameId?: { value: string; format?: string | null },
): ExternalIdentity {
  const defaults = type === 'SAML' ? SAML_DEFAULTS : OIDC_DEFAULTS;
  const read = (key: MappedAttribute) => {
    const names = mapping[key] ? [mapping[key]] : defaults[key];
    for (const name of names) {
      const value = firstString(claims[name]);
      if (value !== null) return value;
    }
    return null;
  };
  let email = read('email');
  if (!email && samlNameId?.format?.endsWith(':emailAddress')) email = samlNameId.value;
  email = email && EMAIL.test(email) ? email.toLowerCase() : null;
  const verifiedClaim = claims.email_verified;
  const emailVerified = type === 'SAML' ? true : verifiedClaim === true || verifiedClaim === 'true';
  const displayName = read('displayName');
  const [first, ...rest] = (displayName ?? '').split(/\s+/);
  return {
    subject,
    email,
    emailVerified: !!email && emailVerified,
    firstName: read('firstName') ?? (rest.length ? first : null),
    lastName: read('lastName') ?? (rest.length ? rest.join(' ') : null),
    displayName,
    phoneNumber: read('phoneNumber'),
  };
}

export function domainAllowed(email: string, allowedDomains: string | null): boolean {
  if (!allowedDomains) return true;
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return allowedDomains.split(',').some((d) => d === domain);
}
