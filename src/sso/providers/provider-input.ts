import { X509Certificate } from 'node:crypto';
import { AppError, FieldError } from '../../common/errors/app-error';
import {
  AttributeMapping,
  IdentityProvider,
  MAPPED_ATTRIBUTES,
  ProviderType,
} from '../entities/identity-provider.entity';
import { IdentityProviderFieldsDto } from '../dto/identity-provider.dto';
import { discoveryUrlOf } from '../oidc/oidc-clients';
import { findPreset } from './presets';

/** Turns a PEM (or bare base64 DER) certificate into a checked PEM; null when it is not one. */
export function normalizeCertificate(raw: string): string | null {
  const body = raw
    .replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')
    .replace(/\s+/g, '')
    .trim();
  if (!/^[A-Za-z0-9+/]+=*$/.test(body)) return null;
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
    return pem;
  } catch {
    return null;
  }
}

export function normalizeDomains(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const domains = raw
    .split(/[\s,;]+/)
    .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
    .filter(Boolean);
  return domains.length ? [...new Set(domains)].join(',') : null;
}

type Changes = Partial<Omit<IdentityProvider, 'id' | 'createdAt' | 'updatedAt'>>;

/** Maps the DTO (with its earlier field names) onto entity columns; secrets are sealed by the caller. */
export function toChanges(dto: IdentityProviderFieldsDto): Changes & { plainSecret?: string } {
  const errors: FieldError[] = [];
  const pick = <T>(a: T | undefined, b: T | undefined, names: string) => {
    if (a !== undefined && b !== undefined && a !== b)
      errors.push({ field: names, message: `${names} differ` });
    return a !== undefined ? a : b;
  };
  const changes: Changes & { plainSecret?: string } = {};
  const set = <K extends keyof Changes>(key: K, value: Changes[K] | undefined) => {
    if (value !== undefined) changes[key] = value;
  };
  set('name', dto.name);
  set('displayName', dto.displayName);
  set('providerType', pick(dto.providerType, dto.type, 'providerType/type'));
  set('presetProvider', dto.presetProvider);
  set('clientId', dto.clientId);
  if (dto.clientSecret !== undefined) changes.plainSecret = dto.clientSecret;
  set('discoveryUri', dto.discoveryUri);
  set('issuerUrl', dto.issuerUrl);
  set('authorizationUri', dto.authorizationUri);
  set('tokenUri', dto.tokenUri);
  set('userInfoUri', dto.userInfoUri);
  set('scopes', dto.scopes?.trim().replace(/\s+/g, ' '));
  set('entityId', dto.entityId);
  set('ssoUrl', dto.ssoUrl);
  set('sloUrl', dto.sloUrl);
  const cert = pick(dto.idpCertificate, dto.certificate, 'idpCertificate/certificate');
  if (cert !== undefined) {
    const pem = normalizeCertificate(cert);
    if (!pem)
      errors.push({ field: 'idpCertificate', message: 'idpCertificate is not a valid PEM certificate' });
    else changes.idpCertificate = pem;
  }
  set('signingAlgorithm', dto.signingAlgorithm);
  set('nameIdFormat', dto.nameIdFormat);
  set('wantAssertionsSigned', dto.wantAssertionsSigned);
  set('wantAuthnRequestsSigned', dto.wantAuthnRequestsSigned);
  set('enabled', pick(dto.enabled, dto.isEnabled, 'enabled/isEnabled'));
  set('jitEnabled', dto.jitEnabled);
  set('jitDefaultRoleId', dto.jitDefaultRoleId);
  set('jitDefaultProfileId', dto.jitDefaultProfileId);
  set('autoLinkByEmail', dto.autoLinkByEmail);
  if (dto.allowedDomains !== undefined) changes.allowedDomains = normalizeDomains(dto.allowedDomains);
  set('companyId', dto.companyId);
  if (dto.attributeMapping !== undefined) changes.attributeMapping = mapping(dto.attributeMapping, errors);
  if (errors.length) throw AppError.validation(errors);
  return changes;
}

function mapping(raw: Record<string, unknown>, errors: FieldError[]): AttributeMapping {
  const out: AttributeMapping = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!(MAPPED_ATTRIBUTES as readonly string[]).includes(key)) {
      errors.push({ field: `attributeMapping.${key}`, message: `attributeMapping.${key} is not allowed` });
    } else if (typeof value !== 'string' || !value.trim() || value.length > 500) {
      errors.push({
        field: `attributeMapping.${key}`,
        message: `attributeMapping.${key} must be a claim name`,
      });
    } else {
      out[key as keyof AttributeMapping] = value.trim();
    }
  }
  return out;
}

/** Fills a preset's defaults, then checks that the merged provider has what its type needs. */
export function completeAndCheck(p: Partial<IdentityProvider>): void {
  const preset = findPreset(p.presetProvider);
  if (preset) {
    if (preset.providerType !== p.providerType) {
      throw AppError.validation([
        { field: 'presetProvider', message: `${preset.key} is a ${preset.providerType} preset` },
      ]);
    }
    if (!p.discoveryUri && !p.issuerUrl && preset.discoveryUri && !preset.discoveryUri.includes('{')) {
      p.discoveryUri = preset.discoveryUri;
    }
    p.authorizationUri ??= preset.authorizationUri ?? null;
    p.tokenUri ??= preset.tokenUri ?? null;
    p.userInfoUri ??= preset.userInfoUri ?? null;
    p.scopes ??= preset.scopes;
    if (!p.attributeMapping || Object.keys(p.attributeMapping).length === 0) {
      p.attributeMapping = { ...preset.attributeMapping };
    }
  }
  const missing = requiredFor(p.providerType!, p).filter((f) => !p[f as keyof IdentityProvider]);
  if (!p.name) missing.unshift('name');
  if (!p.displayName) missing.unshift('displayName');
  if (missing.length) {
    throw AppError.validation(missing.map((field) => ({ field, message: `${field} is required` })));
  }
}

function requiredFor(type: ProviderType, p: Partial<IdentityProvider>): string[] {
  switch (type) {
    case 'OIDC':
      return ['clientId', ...(discoveryUrlOf(p) ? [] : ['discoveryUri'])];
    case 'OAUTH2':
      return ['clientId', ...(discoveryUrlOf(p) ? [] : ['authorizationUri', 'tokenUri', 'userInfoUri'])];
    case 'SAML':
      return ['entityId', 'ssoUrl', 'idpCertificate'];
  }
}
