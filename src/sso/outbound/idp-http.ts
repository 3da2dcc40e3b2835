import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { OutboundClient, OutboundError } from '../../outbound/outbound-client';
import { OutboundHttp } from '../../outbound/outbound-http';
import { SsoSettings } from '../sso.settings';
import { SsoErrors } from '../sso-errors';

const MAX_BODY_BYTES = 1024 * 1024;

export const outboundRefused = (message: string) => new AppError(400, 'SSO_TARGET_NOT_ALLOWED', message);

/**
 * Every outbound call to an identity provider, through the outbound client for caller-supplied
 * URLs (address guard unless SSO_ALLOW_PRIVATE_TARGETS), with SSO_HTTP_TIMEOUT_MS.
 */
@Injectable()
export class IdpHttp {
  private readonly client: OutboundClient;

  constructor(
    outbound: OutboundHttp,
    private readonly settings: SsoSettings,
  ) {
    this.client = outbound.forCallerUrls(settings.SSO_ALLOW_PRIVATE_TARGETS);
  }

  /**
   * The `custom.http_options` hook of openid-client (issuers and clients), which makes its own
   * requests: the URL is checked and the request goes through the guarded agents.
   */
  readonly openidHttpOptions = (url: URL) => ({
    timeout: this.settings.SSO_HTTP_TIMEOUT_MS,
    agent: this.client.agentFor(this.checkUrl(url)),
  });

  /** The URL parsed; 400 SSO_TARGET_NOT_ALLOWED when the outbound rules refuse it. */
  checkUrl(raw: string | URL): URL {
    try {
      return this.client.check(raw);
    } catch (err) {
      throw outboundRefused((err as Error).message);
    }
  }

  /** GET a JSON document (discovery, JWKS); answers 502 SSO_PROVIDER_UNREACHABLE on any failure. */
  async getJson(raw: string): Promise<Record<string, unknown>> {
    const url = this.checkUrl(raw);
    const res = await this.client
      .send({
        url,
        headers: { accept: 'application/json' },
        timeoutMs: this.settings.SSO_HTTP_TIMEOUT_MS,
        maxResponseBytes: MAX_BODY_BYTES,
      })
      .catch((err: OutboundError) => {
        if (err.kind === 'refused') throw outboundRefused(err.message);
        throw SsoErrors.unreachable(`Could not reach ${url.origin}: ${err.message}`);
      });
    if (res.status !== 200) throw SsoErrors.unreachable(`${url.href} answered HTTP ${res.status}`);
    if (res.truncated) throw SsoErrors.unreachable(`${url.href} answered more than ${MAX_BODY_BYTES} bytes`);
    try {
      const parsed = JSON.parse(res.body.toString()) as unknown;
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      return parsed as Record<string, unknown>;
    } catch {
      throw SsoErrors.unreachable(`${url.href} did not answer a JSON object`);
    }
  }
}
