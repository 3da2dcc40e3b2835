import { Injectable } from '@nestjs/common';
import { X509Certificate } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { AuditWriter, diffChanges } from '../../audit-trail/audit-writer';
import { AppError } from '../../common/errors/app-error';
import { SecretBox } from '../../common/crypto/secret-box';
import { CompaniesRepository, RolesRepository } from '../../identity';
import { TenantDatabase } from '../../tenancy/tenant-database';
import {
  CreateIdentityProviderDto,
  DiscoverDto,
  IdentityProviderViewDto,
  TestResultDto,
  UpdateIdentityProviderDto,
} from '../dto/identity-provider.dto';
import { IdentityProvider } from '../entities/identity-provider.entity';
import { discoveryUrlOf, OidcClients } from '../oidc/oidc-clients';
import { IdpHttp } from '../outbound/idp-http';
import { SsoErrors } from '../sso-errors';
import { SsoUrls } from '../sso-urls';
import { IdentityProvidersRepository } from './identity-providers.repository';
import { completeAndCheck, toChanges } from './provider-input';

const AUDIT_IGNORE = ['createdAt', 'updatedAt', 'clientSecret', 'idpCertificate', 'lastTestedAt'];

/** Admin management of the current client's identity providers. */
@Injectable()
export class IdentityProvidersService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly audit: AuditWriter,
    private readonly secrets: SecretBox,
    private readonly oidc: OidcClients,
    private readonly http: IdpHttp,
    private readonly urls: SsoUrls,
    private readonly providers: IdentityProvidersRepository,
    private readonly roles: RolesRepository,
    private readonly companies: CompaniesRepository,
  ) {}

  view(p: IdentityProvider): IdentityProviderViewDto {
    const { clientSecret, ...rest } = p;
    return { ...rest, hasClientSecret: !!clientSecret, callbackUrl: this.urls.callback(p.id) };
  }

  async list() {
    const rows = await this.db.production((m) => this.providers.list(m));
    return { data: rows.map((p) => this.view(p)) };
  }

  async get(id: number) {
    return { data: this.view(await this.find(id)) };
  }

  /** For flows: a provider of the current client, or 404. */
  async find(id: number, manager?: EntityManager): Promise<IdentityProvider> {
    const work = (m: EntityManager) => this.providers.findById(m, id);
    const found = manager ? await work(manager) : await this.db.production(work);
    if (!found) throw SsoErrors.providerNotFound();
    return found;
  }

  async findEnabled(id: number): Promise<IdentityProvider> {
    const provider = await this.find(id);
    if (!provider.enabled) throw SsoErrors.providerDisabled();
    return provider;
  }

  findByNameOrId(key: string): Promise<IdentityProvider | null> {
    return this.db.production((m) => this.providers.findByNameOrId(m, key));
  }

  findSamlByEntityId(entityId: string): Promise<IdentityProvider | null> {
    return this.db.production((m) => this.providers.findSamlByEntityId(m, entityId));
  }

  async publicList() {
    const rows = await this.db.production((m) => this.providers.listEnabled(m));
    return {
      data: rows.map((p) => ({
        id: p.id,
        name: p.name,
        displayName: p.displayName,
        providerType: p.providerType,
      })),
    };
  }

  async create(dto: CreateIdentityProviderDto) {
    const { plainSecret, ...changes } = toChanges(dto);
    if (!changes.providerType) {
      throw AppError.validation([{ field: 'providerType', message: 'providerType (or type) is required' }]);
    }
    const draft: Partial<IdentityProvider> = { attributeMapping: {}, ...changes };
    completeAndCheck(draft);
    if (plainSecret !== undefined) draft.clientSecret = this.secrets.encrypt(plainSecret);
    const saved = await this.db.transaction(async (m) => {
      await this.checkReferences(m, draft);
      await this.checkNameFree(m, draft.name!);
      const created = await this.providers.insert(m, draft);
      await this.audit.record(m, {
        action: 'CREATE',
        entityType: 'IdentityProvider',
        entityId: created.id,
        message: `Identity provider "${created.name}" created`,
        changes: diffChanges(null, created, AUDIT_IGNORE),
      });
      return created;
    });
    return { data: this.view(saved) };
  }

  async update(id: number, dto: UpdateIdentityProviderDto) {
    const { plainSecret, ...changes } = toChanges(dto);
    const saved = await this.db.transaction(async (m) => {
      const before = await this.providers.lockById(m, id);
      if (!before) throw SsoErrors.providerNotFound();
      const merged: IdentityProvider = { ...before, ...changes };
      completeAndCheck(merged);
      if (plainSecret !== undefined) merged.clientSecret = this.secrets.encrypt(plainSecret);
      await this.checkReferences(m, changes);
      if (changes.name && changes.name.toLowerCase() !== before.name.toLowerCase()) {
        await this.checkNameFree(m, changes.name);
      }
      const after = await this.providers.save(m, merged);
      const diff = diffChanges(before, after, AUDIT_IGNORE);
      if (plainSecret !== undefined) diff.hasClientSecret = { old: !!before.clientSecret, new: true };
      if (Object.keys(diff).length) {
        await this.audit.record(m, {
          action: 'UPDATE',
          entityType: 'IdentityProvider',
          entityId: id,
          message: `Identity provider "${after.name}" updated`,
          changes: diff,
        });
      }
      return after;
    });
    return { data: this.view(saved) };
  }

  async remove(id: number) {
    await this.db.transaction(async (m) => {
      const provider = await this.find(id, m);
      await this.providers.delete(m, id);
      await this.audit.record(m, {
        action: 'DELETE',
        entityType: 'IdentityProvider',
        entityId: id,
        message: `Identity provider "${provider.name}" deleted`,
        changes: diffChanges(provider, null, AUDIT_IGNORE),
      });
    });
  }

  async discover(dto: DiscoverDto) {
    const url = discoveryUrlOf(dto);
    if (!url) {
      throw AppError.validation([
        { field: 'discoveryUri', message: 'discoveryUri or issuerUrl is required' },
      ]);
    }
    const issuer = await this.oidc.discover(url, dto.issuerUrl);
    const m = issuer.metadata;
    const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
    return {
      data: {
        issuer: m.issuer,
        authorizationUri: m.authorization_endpoint!,
        tokenUri: m.token_endpoint!,
        userInfoUri: m.userinfo_endpoint ?? null,
        jwksUri: m.jwks_uri ?? null,
        endSessionUri: m.end_session_endpoint ?? null,
        scopesSupported: list(m.scopes_supported),
        claimsSupported: list(m.claims_supported),
        codeChallengeMethodsSupported: list(m.code_challenge_methods_supported),
      },
    };
  }

  async test(id: number): Promise<{ data: TestResultDto }> {
    const provider = await this.find(id);
    let result: Omit<TestResultDto, 'testedAt'>;
    try {
      result = await this.probe(provider);
    } catch (err) {
      result = { status: 'FAILED', message: (err as Error).message, issuer: null };
    }
    const testedAt = new Date();
    await this.db.production((m) => this.providers.recordTest(m, id, testedAt, result.status));
    return { data: { ...result, testedAt } };
  }

  private async probe(p: IdentityProvider): Promise<Omit<TestResultDto, 'testedAt'>> {
    if (p.providerType === 'SAML') {
      const cert = new X509Certificate(p.idpCertificate ?? '');
      if (new Date(cert.validTo).getTime() < Date.now())
        throw new Error(`Certificate expired ${cert.validTo}`);
      this.http.checkUrl(p.ssoUrl ?? '');
      return {
        status: 'SUCCESS',
        message: `Certificate valid until ${cert.validTo}; SSO URL ${p.ssoUrl}`,
        issuer: p.entityId,
      };
    }
    const issuer = await this.oidc.issuer(p);
    const jwksUri = issuer.metadata.jwks_uri;
    if (p.providerType === 'OIDC') {
      if (!jwksUri) throw new Error('The discovery document has no jwks_uri');
      const jwks = await this.http.getJson(jwksUri);
      if (!Array.isArray(jwks.keys) || jwks.keys.length === 0) throw new Error('The JWKS has no keys');
    }
    return {
      status: 'SUCCESS',
      message:
        p.providerType === 'OIDC'
          ? 'Discovery document and signing keys retrieved'
          : 'OAuth 2.0 endpoints configured',
      issuer: String(issuer.metadata.issuer),
    };
  }

  private async checkReferences(m: EntityManager, p: Partial<IdentityProvider>) {
    if (p.jitDefaultRoleId) {
      const role = await this.roles.findById(m, p.jitDefaultRoleId);
      if (!role) throw AppError.validation([{ field: 'jitDefaultRoleId', message: 'Role not found' }]);
      if (role.type === 'SUPER_ADMIN') {
        throw AppError.validation([
          { field: 'jitDefaultRoleId', message: 'JIT users cannot be given the Super Admin role' },
        ]);
      }
    }
    if (p.companyId) {
      if (!(await this.companies.exists(m, p.companyId)))
        throw AppError.validation([{ field: 'companyId', message: 'Company not found' }]);
    }
  }

  private async checkNameFree(m: EntityManager, name: string) {
    if (await this.providers.nameTaken(m, name))
      throw AppError.conflict(`An identity provider named "${name}" already exists`);
  }
}
