import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { ApiTokenAuthenticator } from '../auth/api-token-authenticator';
import { AuthStateCache } from '../auth/auth-state.cache';
import { holds } from '../../access/permissions';
import { Principal } from '../../access/principal';
import { sha256 } from '../../common/crypto/token-hash';
import { AppError } from '../../common/errors/app-error';
import { RedisService } from '../../redis/redis.service';
import { tenantContext } from '../../tenancy/tenant-context';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { toPermissions } from './api-token-permissions';
import { ApiTokenUsage } from './api-token-usage';
import { ApiTokenSettings } from './api-token.settings';
import { ApiTokensRepository } from './api-tokens.repository';

interface TokenRecord {
  id: number;
  name: string;
  createdById: number;
  isFullAccess: boolean;
  permissions: ReadonlySet<string>;
  expiresAt: number | null;
  revoked: boolean;
}

const CHANNEL = 'api-tokens:revoked';
const invalid = () => AppError.unauthorized('Invalid token', 'INVALID_TOKEN');

/**
 * `Bearer svc_...` credentials. Lookups are cached briefly per process (a revocation drops the
 * entry on every replica through Redis); uses are buffered by ApiTokenUsage, so an authenticated
 * request adds no database round trip once the token and its creator are cached.
 */
@Injectable()
export class ApiTokenAuthenticatorService implements ApiTokenAuthenticator, OnApplicationBootstrap {
  private readonly entries = new Map<string, { record: Promise<TokenRecord | null>; expires: number }>();

  constructor(
    private readonly db: TenantDatabase,
    private readonly cache: AuthStateCache,
    private readonly usage: ApiTokenUsage,
    private readonly redis: RedisService,
    private readonly settings: ApiTokenSettings,
    private readonly tokens: ApiTokensRepository,
  ) {}

  /** After every onModuleInit, so the shared subscriber connection is past its handshake. */
  async onApplicationBootstrap() {
    await this.redis.subscribe(CHANNEL, (key) => this.entries.delete(key));
  }

  async authenticate(token: string): Promise<Principal> {
    if (token.length > 200) throw invalid();
    const { client } = tenantContext.get();
    const hash = sha256(token);
    const record = await this.lookup(client.identifier, hash);
    if (!record || record.revoked) throw invalid();
    if (record.expiresAt !== null && record.expiresAt <= Date.now()) {
      throw AppError.unauthorized('Token expired', 'TOKEN_EXPIRED');
    }
    const dataSource = await this.db.forClient(client);
    const creator = await this.cache.get(client.identifier, record.createdById, dataSource);
    if (!creator || creator.deleted || creator.blocked) throw invalid();
    const permissions = record.isFullAccess
      ? creator.permissions
      : new Set(
          [...record.permissions].filter(
            (p) => creator.role === 'SUPER_ADMIN' || holds(creator.permissions, p),
          ),
        );
    this.usage.record(record.id, record.name, creator.userId, creator.username ?? creator.email);
    return {
      userId: creator.userId,
      email: creator.email,
      username: creator.username,
      roleId: creator.roleId,
      role: creator.role,
      companyId: creator.companyId,
      permissions,
      via: 'api_token',
      apiTokenId: record.id,
      restricted: !record.isFullAccess,
    };
  }

  /** Forgets a revoked token here and on every replica. */
  async revoked(clientIdentifier: string, tokenHash: string): Promise<void> {
    const key = `${clientIdentifier}:${tokenHash}`;
    this.entries.delete(key);
    await this.redis.publish(CHANNEL, key);
  }

  private lookup(clientIdentifier: string, hash: string): Promise<TokenRecord | null> {
    const key = `${clientIdentifier}:${hash}`;
    const hit = this.entries.get(key);
    if (hit && hit.expires > Date.now()) return hit.record;
    const record = this.load(hash);
    this.entries.set(key, { record, expires: Date.now() + this.settings.API_TOKEN_CACHE_MS });
    record.catch(() => this.entries.delete(key));
    if (this.entries.size > 50_000) this.entries.delete(this.entries.keys().next().value!);
    return record;
  }

  private async load(hash: string): Promise<TokenRecord | null> {
    const dataSource = await this.db.dataSource();
    const token = await this.tokens.findCredential(dataSource.manager, hash);
    if (!token) return null;
    return {
      id: token.id,
      name: token.name,
      createdById: token.createdById,
      isFullAccess: token.isFullAccess,
      permissions: new Set(toPermissions(token.permissions)),
      expiresAt: token.expiresAt ? new Date(token.expiresAt).getTime() : null,
      revoked: token.revokedAt !== null,
    };
  }
}
