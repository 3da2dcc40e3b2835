import { Injectable, OnModuleInit } from '@nestjs/common';
import { RedisService } from '../redis/redis.service';
import { isSandboxSchema } from './sandbox-naming';
import { TenantClient } from './tenant-context';
import { TenantDataSources } from './tenant-data-sources';
import { ClientSchemasRepository } from './client-schemas.repository';

const CHANNEL = 'sandboxes:changed';

/** Cached set of sandbox schemas per client, so a sandbox header is checked without a query. */
@Injectable()
export class SandboxSchemas implements OnModuleInit {
  private readonly cache = new Map<string, Promise<Set<string>>>();

  constructor(
    private readonly dataSources: TenantDataSources,
    private readonly redis: RedisService,
    private readonly schemas: ClientSchemasRepository,
  ) {}

  async onModuleInit() {
    await this.redis.subscribe(CHANNEL, (identifier) => this.cache.delete(identifier));
  }

  async exists(client: TenantClient, schema: string): Promise<boolean> {
    if (!isSandboxSchema(schema)) return false;
    let schemas = this.cache.get(client.identifier);
    if (!schemas) {
      schemas = this.load(client);
      this.cache.set(client.identifier, schemas);
      schemas.catch(() => this.cache.delete(client.identifier));
    }
    return (await schemas).has(schema);
  }

  async changed(client: TenantClient): Promise<void> {
    this.cache.delete(client.identifier);
    await this.redis.publish(CHANNEL, client.identifier);
  }

  private async load(client: TenantClient): Promise<Set<string>> {
    const dataSource = await this.dataSources.forClient(client);
    return new Set(await this.schemas.sandboxSchemaNames(dataSource));
  }
}
