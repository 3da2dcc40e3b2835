import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * A local peer speaking the HTTP OCR service's wire format: `POST /ocr` multipart with `file` and
 * `lang`, answering `{ text, confidence, pages }`; `GET /health` answering `{ status, version }`.
 * `delayMs` holds answers back (timeouts); `down` answers 503 everywhere.
 */
export class FakeOcrService {
  private server?: Server;
  readonly requests: { lang: string; bytes: number }[] = [];
  delayMs = 0;
  /** Requests left unanswered (held open) before the service answers again. */
  hold = 0;
  down = false;
  text = 'FAKE SERVICE TEXT about hydro turbines';

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private async handle(req: IncomingMessage, res: import('node:http').ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('latin1');
    if (this.down) return void res.writeHead(503).end('down');
    if (req.method === 'GET' && req.url === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ status: 'ok', version: 'fake-ocr 2.7' }));
    }
    if (req.method === 'POST' && req.url === '/ocr') {
      const lang = /name="lang"\r\n\r\n([^\r]*)/.exec(body)?.[1] ?? '';
      this.requests.push({ lang, bytes: chunks.reduce((n, c) => n + c.length, 0) });
      if (this.hold > 0) return void this.hold--;
      if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
      if (res.destroyed) return;
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ text: this.text, confidence: 0.87654, pages: 2 }));
    }
    res.writeHead(404).end();
  }
}
