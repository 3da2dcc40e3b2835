import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { ClientRegistry } from './client-registry';
import { TenantClient } from './tenant-context';

/**
 * Public address of a client for e-mailed links: its custom domain, else its subdomain under the
 * base domain, else PUBLIC_APP_URL. Never the request's Host header, which a caller controls.
 */
@Injectable()
export class ClientLinks {
  constructor(
    private readonly config: AppConfig,
    private readonly registry: ClientRegistry,
  ) {}

  baseUrl(client: TenantClient): string {
    const record = client.isMaster ? undefined : this.registry.findByIdentifier(client.identifier);
    if (record?.customDomain) return `https://${record.customDomain}`;
    if (record?.subdomain && this.config.MULTITENANCY_BASE_DOMAIN) {
      return `https://${record.subdomain}.${this.config.MULTITENANCY_BASE_DOMAIN}`;
    }
    return this.config.PUBLIC_APP_URL.replace(/\/$/, '');
  }

  link(client: TenantClient, path: string, query: Record<string, string>): string {
    const url = new URL(path, `${this.baseUrl(client)}/`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    if (client.isMaster === false && !url.searchParams.has('client'))
      url.searchParams.set('client', client.identifier);
    return url.toString();
  }
}
