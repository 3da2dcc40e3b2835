import { Injectable } from '@nestjs/common';
import http from 'node:http';
import https from 'node:https';
import { SsoSettings } from '../sso.settings';
import { SsoErrors } from '../sso-errors';
import { assertOutboundUrl, guardedLookup, outboundRefused } from './outbound-guard';

const MAX_BODY_BYTES = 1024 * 1024;

/** Every outbound call to an identity provider: http(s) only, no private targets, a timeout, no redirects. */
@Injectable()
export class OutboundHttp {
  constructor(private readonly settings: SsoSettings) {}

  /** The `custom.http_options` hook of openid-client (issuers and clients). */
  readonly openidHttpOptions = (url: URL) => {
    assertOutboundUrl(url, this.settings.SSO_ALLOW_PRIVATE_TARGETS);
    return {
      timeout: this.settings.SSO_HTTP_TIMEOUT_MS,
      lookup: guardedLookup(this.settings.SSO_ALLOW_PRIVATE_TARGETS) as never,
    };
  };

  checkUrl(raw: string): URL {
    return assertOutboundUrl(raw, this.settings.SSO_ALLOW_PRIVATE_TARGETS);
  }

  /** GET a JSON document (discovery); answers 502 SSO_PROVIDER_UNREACHABLE on any failure. */
  async getJson(raw: string): Promise<Record<string, unknown>> {
    const url = this.checkUrl(raw);
    const { status, body } = await this.get(url).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ESSOTARGET') throw outboundRefused(err.message);
      throw SsoErrors.unreachable(`Could not reach ${url.origin}: ${err.message}`);
    });
    if (status !== 200) throw SsoErrors.unreachable(`${url.href} answered HTTP ${status}`);
    try {
      const parsed = JSON.parse(body) as unknown;
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      return parsed as Record<string, unknown>;
    } catch {
      throw SsoErrors.unreachable(`${url.href} did not answer a JSON object`);
    }
  }

  private get(url: URL): Promise<{ status: number; body: string }> {
    const allowPrivate = this.settings.SSO_ALLOW_PRIVATE_TARGETS;
    const send = url.protocol === 'https:' ? https.get : http.get;
    return new Promise((resolve, reject) => {
      const req = send(
        url,
        {
          timeout: this.settings.SSO_HTTP_TIMEOUT_MS,
          lookup: guardedLookup(allowPrivate),
          headers: { accept: 'application/json' },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_BODY_BYTES) {
              req.destroy(new Error('response too large'));
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', reject);
    });
  }
}
