import http, { IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export type Vendor = 'openai' | 'anthropic' | 'gemini' | 'azure' | 'ollama';

/** Tokens each vendor reports, distinct so that sums in the statistics show where they came from. */
export const USAGE: Record<Vendor, { input: number; output: number }> = {
  openai: { input: 11, output: 7 },
  anthropic: { input: 13, output: 5 },
  gemini: { input: 17, output: 3 },
  azure: { input: 19, output: 2 },
  ollama: { input: 23, output: 4 },
};

export const PIECES = ['Hello', ' from', ' the', ' fake'];
export const ANSWER = PIECES.join('');

/** What the next request to a vendor does instead of answering at once. */
export interface Step {
  /** Answer this HTTP status with the vendor's error body. */
  status?: number;
  /** Wait before answering (longer than AI_TIMEOUT_MS: a timeout). */
  delayMs?: number;
  /** Wait between streamed pieces. */
  pieceDelayMs?: number;
  /** Cut the connection after the first streamed piece. */
  breakAfterFirst?: boolean;
}

export interface Seen {
  vendor: Vendor;
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- vendor request bodies are read as sent
  body: any;
  /** True once the client closed the connection before the answer ended. */
  closedEarly: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A local HTTP server speaking the five vendors' wire formats: OpenAI chat completions (JSON and
 * SSE chunks with usage), Azure's deployments path, Anthropic messages (JSON and SSE events),
 * Gemini generateContent / streamGenerateContent (SSE) and Ollama /api/chat (JSON and NDJSON).
 */
export class FakeVendor {
  readonly seen: Seen[] = [];
  private readonly plans = new Map<Vendor, Step[]>();
  private server?: http.Server;
  port = 0;

  /** How long an answer takes when no plan says otherwise (0: at once). */
  answerDelayMs: () => number = () => 0;

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => void this.handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    this.server.keepAliveTimeout = 5000; // real vendors keep connections for minutes; under 1 s Node clients drop them after each answer
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop() {
    this.server?.closeAllConnections();
    await new Promise((r) => this.server?.close(r));
  }

  get root() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The steps the next requests to `vendor` take, one each, in order. */
  plan(vendor: Vendor, ...steps: Step[]) {
    this.plans.set(vendor, [...(this.plans.get(vendor) ?? []), ...steps]);
  }

  clear() {
    this.seen.length = 0;
    this.plans.clear();
  }

  private vendorOf(url: string): Vendor | null {
    if (url.startsWith('/v1/chat/completions')) return 'openai';
    if (url.startsWith('/openai/deployments/')) return 'azure';
    if (url.startsWith('/v1/messages')) return 'anthropic';
    if (url.startsWith('/v1beta/models/')) return 'gemini';
    if (url.startsWith('/api/chat')) return 'ollama';
    return null;
  }

  private async handle(req: IncomingMessage, res: ServerResponse, raw: string) {
    const url = req.url ?? '/';
    const vendor = this.vendorOf(url);
    if (!vendor || req.method !== 'POST') return void res.writeHead(404).end('{}');
    let body: unknown = null;
    try {
      body = JSON.parse(raw);
    } catch {
      body = null;
    }
    const seen: Seen = { vendor, method: req.method, url, headers: req.headers, body, closedEarly: false };
    this.seen.push(seen);
    res.on('close', () => {
      if (!res.writableFinished) seen.closedEarly = true;
    });
    const step = this.plans.get(vendor)?.shift() ?? {};
    const delayMs = step.delayMs ?? this.answerDelayMs();
    if (delayMs) await sleep(delayMs);
    if (res.destroyed) return;
    if (step.status) return this.error(vendor, res, step.status);
    const streaming =
      vendor === 'gemini'
        ? url.includes(':streamGenerateContent')
        : (body as { stream?: boolean })?.stream === true;
    if (!streaming) return this.json(res, this.whole(vendor, body));
    return this.stream(vendor, body, res, step);
  }

  private json(res: ServerResponse, body: unknown, status = 200) {
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  }

  private error(vendor: Vendor, res: ServerResponse, status: number) {
    const message = `fake ${vendor} error ${status}`;
    if (vendor === 'anthropic') {
      return this.json(res, { type: 'error', error: { type: 'api_error', message } }, status);
    }
    if (vendor === 'gemini')
      return this.json(res, { error: { code: status, message, status: 'UNAVAILABLE' } }, status);
    if (vendor === 'ollama') return this.json(res, { error: message }, status);
    return this.json(res, { error: { message, type: 'server_error', code: null } }, status);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies as the vendors define them
  private whole(vendor: Vendor, body: any): unknown {
    const { input, output } = USAGE[vendor];
    switch (vendor) {
      case 'openai':
      case 'azure':
        return {
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: ANSWER }, finish_reason: 'stop' }],
          usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
        };
      case 'anthropic':
        return {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: body.model,
          content: [{ type: 'text', text: ANSWER }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: input, output_tokens: output },
        };
      case 'gemini':
        return this.geminiChunk(ANSWER, true);
      case 'ollama':
        return {
          model: body.model,
          created_at: new Date().toISOString(),
          message: { role: 'assistant', content: ANSWER },
          done: true,
          done_reason: 'stop',
          prompt_eval_count: input,
          eval_count: output,
        };
    }
  }

  private geminiChunk(text: string, last: boolean) {
    const { input, output } = USAGE.gemini;
    return {
      candidates: [
        {
          content: { role: 'model', parts: [{ text }] },
          index: 0,
          ...(last ? { finishReason: 'STOP' } : {}),
        },
      ],
      usageMetadata: last
        ? { promptTokenCount: input, candidatesTokenCount: output, totalTokenCount: input + output }
        : { promptTokenCount: input },
      modelVersion: 'gemini-fake-001',
    };
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies as the vendors define them
  private async stream(vendor: Vendor, body: any, res: ServerResponse, step: Step) {
    const { input, output } = USAGE[vendor];
    const ndjson = vendor === 'ollama';
    res.writeHead(200, { 'Content-Type': ndjson ? 'application/x-ndjson' : 'text/event-stream' });
    const sse = (data: unknown, event?: string) =>
      res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
    const line = (data: unknown) => res.write(`${JSON.stringify(data)}\n`);
    const model = body?.model;

    if (vendor === 'anthropic') {
      sse(
        {
          type: 'message_start',
          message: {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model,
            content: [],
            stop_reason: null,
            usage: { input_tokens: input, output_tokens: 1 },
          },
        },
        'message_start',
      );
      sse(
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        'content_block_start',
      );
    }
    for (const [i, piece] of PIECES.entries()) {
      if (res.destroyed) return;
      if (i > 0 && step.pieceDelayMs) await sleep(step.pieceDelayMs);
      if (res.destroyed) return;
      if (vendor === 'openai' || vendor === 'azure') {
        sse({
          id: 'chatcmpl-1',
          object: 'chat.completion.chunk',
          created: 1,
          model,
          choices: [
            {
              index: 0,
              delta: i === 0 ? { role: 'assistant', content: piece } : { content: piece },
              finish_reason: null,
            },
          ],
        });
      } else if (vendor === 'anthropic') {
        sse(
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } },
          'content_block_delta',
        );
      } else if (vendor === 'gemini') {
        sse(this.geminiChunk(piece, i === PIECES.length - 1));
      } else {
        line({
          model,
          created_at: new Date().toISOString(),
          message: { role: 'assistant', content: piece },
          done: false,
        });
      }
      if (i === 0 && step.breakAfterFirst) {
        await sleep(20);
        res.destroy();
        return;
      }
    }
    if (vendor === 'openai' || vendor === 'azure') {
      sse({
        id: 'chatcmpl-1',
        object: 'chat.completion.chunk',
        created: 1,
        model,
        choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
      });
      sse({
        id: 'chatcmpl-1',
        object: 'chat.completion.chunk',
        created: 1,
        model,
        choices: [],
        usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
      });
      res.write('data: [DONE]\n\n');
    } else if (vendor === 'anthropic') {
      sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop');
      sse(
        {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { output_tokens: output },
        },
        'message_delta',
      );
      sse({ type: 'message_stop' }, 'message_stop');
    } else if (vendor === 'ollama') {
      line({
        model,
        created_at: new Date().toISOString(),
        message: { role: 'assistant', content: '' },
        done: true,
        done_reason: 'stop',
        prompt_eval_count: input,
        eval_count: output,
      });
    }
    res.end();
  }
}
