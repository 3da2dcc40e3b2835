import { createHmac } from 'node:crypto';
import http, { IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  method: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- receivers read arbitrary payloads
  body: any;
  at: number;
}

type Responder = (req: Received, res: ServerResponse) => void;

/** A real HTTP receiver on loopback: records every request; answers per path (default 200). */
export class Receiver {
  readonly received: Received[] = [];
  private readonly responders = new Map<string, Responder>();
  private server?: http.Server;
  private waiters: (() => void)[] = [];
  port = 0;

  async start(): Promise<this> {
    this.server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: unknown = null;
        try {
          body = JSON.parse(raw);
        } catch {
          body = null;
        }
        const path = req.url ?? '/';
        const entry = { path, method: req.method ?? '', headers: req.headers, raw, body, at: Date.now() };
        this.received.push(entry);
        this.waiters.splice(0).forEach((wake) => wake());
        const responder = this.responders.get(path);
        if (responder) return responder(entry, res);
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
      });
    });
    this.server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  url(path: string) {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  on(path: string, responder: Responder) {
    this.responders.set(path, responder);
  }

  status(path: string, status: number) {
    this.on(path, (_req, res) => res.writeHead(status).end());
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async waitFor(path: string, count = 1, timeoutMs = 15000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const got = this.at(path);
      if (got.length >= count) return got;
      if (Date.now() > deadline)
        throw new Error(`Only ${got.length}/${count} requests to ${path} in ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  async stop() {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/** The X-SVC-Signature the receiver expects for a raw body. */
export const svcSignature = (secret: string, raw: string) =>
  `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

/** The Standard Webhooks `webhook-signature` for a request. */
export const standardSignature = (secret: string, id: string, timestamp: string, raw: string) =>
  `v1,${createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
    .update(`${id}.${timestamp}.${raw}`)
    .digest('base64')}`;

export async function until<T>(
  probe: () => Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs = 15000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ok(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`Condition not met in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
