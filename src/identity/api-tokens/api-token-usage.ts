import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { AuditWriter } from '../../audit-trail/audit-writer';
import { TenantClient, tenantContext } from '../../tenancy/tenant-context';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { ApiTokenSettings } from './api-token.settings';
import { ApiTokensRepository } from './api-tokens.repository';

interface Use {
  client: TenantClient;
  tokenId: number;
  tokenName: string;
  userId: number;
  username: string;
  at: Date;
  ip?: string;
  userAgent?: string;
  requestId: string;
  schema: string;
}

const MAX_BUFFERED = 20000;

/**
 * Uses of API tokens, buffered in memory and written every API_TOKEN_FLUSH_MS: lastUsedAt and one
 * audit entry per use, so a request authenticated by a token costs no database write.
 */
@Injectable()
export class ApiTokenUsage implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ApiTokenUsage.name);
  private buffer: Use[] = [];
  private dropped = 0;
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;

  constructor(
    private readonly db: TenantDatabase,
    private readonly audit: AuditWriter,
    private readonly settings: ApiTokenSettings,
    private readonly tokens: ApiTokensRepository,
  ) {}

  onModuleInit() {
    this.timer = setInterval(() => void this.flush(), this.settings.API_TOKEN_FLUSH_MS);
    this.timer.unref();
  }

  async onModuleDestroy() {
    clearInterval(this.timer);
    await this.flush();
  }

  /** Notes one use by the current request. */
  record(tokenId: number, tokenName: string, userId: number, username: string) {
    if (this.buffer.length >= MAX_BUFFERED) {
      this.dropped++;
      return;
    }
    const store = tenantContext.get();
    this.buffer.push({
      client: store.client,
      tokenId,
      tokenName,
      userId,
      username,
      at: new Date(),
      ip: store.ip,
      userAgent: store.userAgent,
      requestId: store.requestId,
      schema: store.schema,
    });
  }

  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async write() {
    if (this.dropped) {
      this.logger.warn(`${this.dropped} API token uses were not audited (buffer full)`);
      this.dropped = 0;
    }
    const uses = this.buffer;
    this.buffer = [];
    const byClient = new Map<string, Use[]>();
    for (const use of uses) {
      const list = byClient.get(use.client.identifier) ?? [];
      list.push(use);
      byClient.set(use.client.identifier, list);
    }
    for (const list of byClient.values()) {
      try {
        await this.writeClient(list);
      } catch (err) {
        this.logger.warn(`API token usage of ${list[0].client.identifier}: ${(err as Error).message}`);
      }
    }
  }

  private async writeClient(uses: Use[]) {
    const dataSource = await this.db.forClient(uses[0].client);
    const last = new Map<number, Date>();
    for (const use of uses) last.set(use.tokenId, use.at);
    await dataSource.transaction(async (m) => {
      await this.tokens.touchLastUsed(m, [...last.entries()]);
      for (const use of uses) {
        const store = {
          requestId: use.requestId,
          client: use.client,
          schema: 'public',
          ip: use.ip,
          userAgent: use.userAgent,
        };
        await tenantContext.run(store, () =>
          this.audit.record(m, {
            action: 'ACCESS',
            entityType: 'ApiToken',
            entityId: use.tokenId,
            userId: use.userId,
            username: use.username,
            message: `API token "${use.tokenName}" used`,
            metadata: {
              event: 'API_TOKEN_USED',
              usedAt: use.at.toISOString(),
              requestId: use.requestId,
              schema: use.schema,
            },
          }),
        );
      }
    });
  }
}
