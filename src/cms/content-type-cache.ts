import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { RedisService } from '../redis/redis.service';
import { tenantContext } from '../tenancy/tenant-context';
import { CmsDdlRepository } from './cms-ddl.repository';
import { compile } from './cms-definition';
import { CompiledType } from './content-type.types';

const CHANNEL = 'cms:types:changed';
/** Published by the sandbox registry when a client's sandboxes change (a schema may be new or gone). */
const SANDBOX_CHANNEL = 'sandboxes:changed';

/**
 * Compiled content types per client schema, loaded once from the schema's definitions and dropped
 * on every replica (Redis pub/sub) when a type of that schema changes.
 */
@Injectable()
export class ContentTypeCache implements OnModuleInit {
  private readonly cache = new Map<string, Promise<Map<string, CompiledType>>>();

  constructor(
    private readonly statements: CmsDdlRepository,
    private readonly redis: RedisService,
  ) {}

  async onModuleInit() {
    await this.redis.subscribe(CHANNEL, (key) => this.cache.delete(key));
    await this.redis.subscribe(SANDBOX_CHANNEL, (identifier) => {
      for (const key of this.cache.keys()) if (key.startsWith(`${identifier}:`)) this.cache.delete(key);
    });
  }

  /** Every type of the current schema, by collection name. */
  all(): Promise<Map<string, CompiledType>> {
    const key = currentKey();
    let types = this.cache.get(key);
    if (!types) {
      types = this.load();
      this.cache.set(key, types);
      types.catch(() => this.cache.delete(key));
    }
    return types;
  }

  /** One type of the current schema, else 404. */
  async get(collectionName: string): Promise<CompiledType> {
    const type = (await this.all()).get(collectionName);
    if (!type) throw AppError.notFound('Content type');
    return type;
  }

  /** Drops the current schema's types in this process only. */
  forget(): void {
    this.cache.delete(currentKey());
  }

  /** Drops the current schema's types here and on every other replica. */
  async changed(): Promise<void> {
    const key = currentKey();
    this.cache.delete(key);
    await this.redis.publish(CHANNEL, key);
  }

  private async load(): Promise<Map<string, CompiledType>> {
    const definitions = await this.statements.definitions();
    return new Map(definitions.map((d) => [d.collectionName, compile(d)]));
  }
}

function currentKey(): string {
  const { client, schema } = tenantContext.get();
  return `${client.identifier}:${schema}`;
}
