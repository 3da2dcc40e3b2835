import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { ApiTokenAuthenticator } from '../auth/api-token-authenticator';
import { AuthStateCache } from '../auth/auth-state.cache';
import { holds } from '../../access/permissions';
import { Principal } from '../../access/principal';
import { sha256 } from '../../common/crypto/token-hash';
import { AppError } from '../../common/errors/app-error';
import { ExpiringLru } from '../auth/expiring-lru';
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
/** The life of a lookup made while the Redis subscriber is down, when revocations may be lost. */
const UNSUBSCRIBED_LIFE_MS = 5000;
const invalid = () => AppError.unauthorized('Invalid token', 'INVALID_TOKEN');

/**
 * `Bearer svc_...` credentials. A token's record changes only when it is revoked, so lookups are
 * kept per process until then (a revocation drops the entry on every replica through Redis; all
 * are dropped when the subscriber connection is lost and again once it is back; API_TOKEN_CACHE_MS
 * is a backstop); uses are buffered by ApiTokenUsage, so an authenticated request adds no database
 * round trip once the token and its creator are cached, however rarely the token is used.
 */
@Injectable()
export class ApiTokenAuthenticatorService implements ApiTokenAuthenticator, OnApplicationBootstrap {
  private readonly entries = new ExpiringLru<Promise<TokenRecord | null>>(50_000);

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
    this.redis.onMessagesMayBeLost(() => this.entries.clear());
    // A restore in place may bring back a database without tokens created since.
    this.cache.onClientInvalidated((client) =>
      this.entries.deleteMatching((k) => k.startsWith(`${client}:`)),
    );
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
    if (hit) return hit;
    const record = this.load(hash);
    const life = this.settings.API_TOKEN_CACHE_MS;
    this.entries.set(key, record, this.redis.subscribed ? life : Math.min(life, UNSUBSCRIBED_LIFE_MS));
    record.catch(() => this.entries.deleteIf(key, record));
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
