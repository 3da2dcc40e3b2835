import { Injectable } from '@nestjs/common';
import { OutboundClient, OutboundError } from '../outbound/outbound-client';
import { OutboundHttp } from '../outbound/outbound-http';
import { WebhookSettings } from './webhook.settings';

export interface WebhookRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  verifySsl: boolean;
}

export interface SendResult {
  ok: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
}

/** The receiver's answer is read up to this size, then dropped (only the status counts). */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Sends one delivery request through the outbound client for caller-supplied URLs (address guard
 * unless WEBHOOK_ALLOW_PRIVATE_TARGETS). A 2xx is a success; a 3xx is not followed and fails.
 */
@Injectable()
export class WebhookSender {
  private readonly client: OutboundClient;

  constructor(outbound: OutboundHttp, settings: WebhookSettings) {
    this.client = outbound.forCallerUrls(settings.WEBHOOK_ALLOW_PRIVATE_TARGETS);
  }

  async send(req: WebhookRequest): Promise<SendResult> {
    const started = Date.now();
    const done = (ok: boolean, status: number | null, error: string | null): SendResult => ({
      ok,
      status,
      error,
      durationMs: Date.now() - started,
    });
    try {
      const res = await this.client.send({
        url: req.url,
        method: req.method,
        headers: req.headers,
        body: req.body,
        timeoutMs: req.timeoutMs,
        maxResponseBytes: MAX_RESPONSE_BYTES,
        verifyTls: req.verifySsl,
      });
      const ok = res.status >= 200 && res.status < 300;
      return done(ok, res.status, ok ? null : `Receiver answered HTTP ${res.status}`);
    } catch (err) {
      return done(false, null, err instanceof OutboundError ? err.message : 'Request failed');
    }
  }
}
