import { Injectable, OnModuleDestroy } from '@nestjs/common';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { BlockedTargetError, guardedLookup, hostOf, isBlockedAddress } from './ssrf-guard';
import { WebhookSettings } from './webhook.settings';

export interface OutboundRequest {
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

const MAX_RESPONSE_BYTES = 64 * 1024;

interface Exchange {
  ok: boolean;
  status: number | null;
  error: string | null;
  staleSocket?: boolean;
}

/**
 * Sends one delivery request. Connections go through agents whose `lookup` checks and pins the
 * resolved address (SSRF guard); IP-literal hosts are checked here since they skip the lookup.
 * Redirects are never followed (a 3xx is a failure); the whole exchange is bounded by timeoutMs.
 */
@Injectable()
export class WebhookSender implements OnModuleDestroy {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly insecureAgent: https.Agent;

  constructor(private readonly settings: WebhookSettings) {
    const lookup = guardedLookup(settings.WEBHOOK_ALLOW_PRIVATE_TARGETS);
    const common = { keepAlive: true, maxSockets: 256, lookup };
    this.httpAgent = new http.Agent(common);
    this.httpsAgent = new https.Agent({ ...common, rejectUnauthorized: true });
    this.insecureAgent = new https.Agent({ ...common, rejectUnauthorized: false });
  }

  onModuleDestroy() {
    for (const agent of [this.httpAgent, this.httpsAgent, this.insecureAgent]) agent.destroy();
  }

  async send(req: OutboundRequest): Promise<SendResult> {
    const started = Date.now();
    const done = (ok: boolean, status: number | null, error: string | null): SendResult => ({
      ok,
      status,
      error,
      durationMs: Date.now() - started,
    });
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return done(false, null, 'Invalid URL');
    }
    const host = hostOf(url);
    if (!this.settings.WEBHOOK_ALLOW_PRIVATE_TARGETS && isIP(host) && isBlockedAddress(host)) {
      return done(false, null, `Target address ${host} is not allowed`);
    }
    const secure = url.protocol === 'https:';
    const agent = secure ? (req.verifySsl ? this.httpsAgent : this.insecureAgent) : this.httpAgent;
    const deadline = started + req.timeoutMs;
    const first = await this.exchange(url, req, agent, deadline);
    // A kept-alive socket the receiver closed meanwhile fails before any answer: resend once on a fresh one.
    const outcome =
      first.staleSocket && Date.now() < deadline ? await this.exchange(url, req, agent, deadline) : first;
    return done(outcome.ok, outcome.status, outcome.error);
  }

  private exchange(url: URL, req: OutboundRequest, agent: http.Agent, deadline: number): Promise<Exchange> {
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<Exchange>((resolve) => {
      let settled = false;
      const finish = (r: Exchange) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(r);
      };
      const request = client.request(url, {
        method: req.method,
        agent,
        headers: { ...req.headers, 'Content-Length': String(Buffer.byteLength(req.body)) },
      });
      const timer = setTimeout(
        () => {
          finish({ ok: false, status: null, error: `Timed out after ${req.timeoutMs} ms` });
          request.destroy();
        },
        Math.max(0, deadline - Date.now()),
      );
      request.on('response', (res) => {
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) res.destroy();
        });
        const status = res.statusCode ?? 0;
        const end = () => {
          const ok = status >= 200 && status < 300;
          finish({ ok, status, error: ok ? null : `Receiver answered HTTP ${status}` });
        };
        res.on('end', end);
        res.on('close', end);
        res.on('error', end);
      });
      request.on('error', (err: NodeJS.ErrnoException) => {
        const message = err instanceof BlockedTargetError ? err.message : `Request failed: ${err.message}`;
        const stale = request.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
        finish({ ok: false, status: null, error: message, staleSocket: stale });
      });
      request.end(req.body);
    });
  }
}
