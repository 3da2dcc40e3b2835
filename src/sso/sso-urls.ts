import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { SsoSettings } from './sso.settings';

/** The public addresses of this service provider (what is registered at identity providers). */
@Injectable()
export class SsoUrls {
  readonly base: string;

  constructor(
    config: AppConfig,
    private readonly settings: SsoSettings,
  ) {
    this.base = (settings.SSO_PUBLIC_URL ?? config.PUBLIC_APP_URL).replace(/\/+$/, '');
    this.spEntityId = settings.SSO_SAML_SP_ENTITY_ID ?? `${this.base}/auth/sso/saml/metadata`;
  }

  /** The entity id shared by every client (and the master's own). */
  readonly spEntityId: string;

  /**
   * The entity id a client publishes and signs its requests with: its own metadata URL, so that
   * each client is a service provider of its own at an IdP. With SSO_SAML_SP_ENTITY_ID set, the
   * operator has pinned one entity id for all.
   */
  entityIdFor(client: { identifier: string; isMaster: boolean }): string {
    if (client.isMaster || this.settings.SSO_SAML_SP_ENTITY_ID) return this.spEntityId;
    return `${this.base}/auth/sso/saml/metadata/${encodeURIComponent(client.identifier)}`;
  }

  callback(providerId: number): string {
    return `${this.base}/auth/sso/callback/${providerId}`;
  }

  get acs(): string {
    return `${this.base}/auth/sso/saml/acs`;
  }

  /**
   * The ACS of one client, as its metadata publishes it: the shared ACS path with `?client=`, so an
   * IdP-initiated response posted there needs no RelayState to find its client.
   */
  acsFor(client: string): string {
    return `${this.acs}?client=${encodeURIComponent(client)}`;
  }

  /** The older per-client ACS path, still served as an alias for IdPs registered with it. */
  acsAliasFor(client: string): string {
    return `${this.acs}/${encodeURIComponent(client)}`;
  }

  get slo(): string {
    return `${this.base}/auth/sso/saml/slo`;
  }

  get metadata(): string {
    return `${this.base}/auth/sso/saml/metadata`;
  }
}
