import { Injectable } from '@nestjs/common';
import { ConfigError } from '../../config/load-settings';
import { SsoSettings } from '../sso.settings';
import { SsoErrors } from '../sso-errors';

/** Post-login redirects go only to the origins of SSO_REDIRECT_ALLOWLIST. */
@Injectable()
export class RedirectAllowlist {
  private readonly origins: Set<string>;

  constructor(settings: SsoSettings) {
    const entries = settings.SSO_REDIRECT_ALLOWLIST.split(',')
      .map((o) => o.trim())
      .filter(Boolean);
    const origins = entries.map((entry) => {
      try {
        const url = new URL(entry);
        if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
      } catch {
        // reported below
      }
      throw new ConfigError(
        `Invalid configuration:\n  SSO_REDIRECT_ALLOWLIST: "${entry}" is not an http(s) origin`,
      );
    });
    this.origins = new Set(origins);
  }

  allowed(raw: string): boolean {
    // eslint-disable-next-line no-control-regex
    if (raw.length > 2000 || /[\u0000-\u001f\\\s]/.test(raw) || !/^https?:\/\/[^/]/i.test(raw)) return false;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return false;
    }
    if (url.username || url.password) return false;
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    return this.origins.has(url.origin);
  }

  /** The redirect URI unchanged, or 400 SSO_REDIRECT_NOT_ALLOWED. */
  check(raw: string | undefined): string | undefined {
    if (raw === undefined || raw === '') return undefined;
    if (!this.allowed(raw)) throw SsoErrors.redirectNotAllowed();
    return raw;
  }
}
