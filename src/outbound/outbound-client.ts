import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { checkUrl, guardedLookup, isBlockedTarget } from './address-guard';

export interface OutboundRequest {
  url: string | URL;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Bounds the whole exchange, connection and response body included. */
  timeoutMs: number;
  /** Body bytes kept; a longer body is cut there and `truncated` is set. */
  maxResponseBytes: number;
  /** false accepts any TLS certificate (a webhook's verifySsl); true by default. */
  verifyTls?: boolean;
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
}

/** Why an outbound call failed before an answer: `refused` by the URL or address rules, `timeout`, `network`. */
export class OutboundError extends Error {
  constructor(
    readonly kind: 'refused' | 'timeout' | 'network',
    message: string,
  ) {
    super(message);
  }
}

/** Settings of a fetch-compatible function (see OutboundClient.fetchFunction). */
export interface FetchLimits {
  timeoutMs: number;
  maxResponseBytes: number;
}

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);
/** Answers an SDK reads piece by piece (server-sent events, NDJSON): handed over as a stream. */
const STREAMED_TYPES = /^(text\/event-stream|application\/(x-)?ndjson|application\/jsonl)/i;

interface FetchRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
  signal?: AbortSignal | null;
}

/**
 * The parts of a fetch call. SDKs pass a URL string and a string or byte body: read directly, as a
 * `Request` costs about as much as the rest of the call; anything else goes through `Request`.
 */
async function fetchRequest(input: string | URL | Request, init?: RequestInit): Promise<FetchRequest> {
  const body = init?.body;
  if (
    !(input instanceof Request) &&
    (body == null || typeof body === 'string' || body instanceof Uint8Array)
  ) {
    return {
      url: String(input),
      method: (init?.method ?? 'GET').toUpperCase(),
      headers: Object.fromEntries(new Headers(init?.headers)),
      body: body == null ? undefined : Buffer.from(body),
      signal: init?.signal,
    };
  }
  const request = new Request(input, init);
  return {
    url: request.url,
    method: request.method,
    headers: Object.fromEntries(request.headers),
    body: request.body ? Buffer.from(await request.arrayBuffer()) : undefined,
    signal: request.signal,
  };
}

/**
 * Makes outbound HTTP calls with one set of rules: http(s) only, no credentials in URLs, an overall
 * timeout, a cap on the response body, redirects never followed (a 3xx is answered as it is), and,
 * when `guarded`, the address guard applied to literal-IP hosts and (through the agents' `lookup`)
 * to the address each connection is made to. Keep-alive agents are shared by every caller.
 */
export class OutboundClient {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly insecureAgent: https.Agent;

  constructor(readonly guarded: boolean) {
    const common: http.AgentOptions = { keepAlive: true, maxSockets: 256 };
    if (guarded) Object.assign(common, { lookup: guardedLookup(false) });
    this.httpAgent = new http.Agent(common);
    this.httpsAgent = new https.Agent({ ...common, rejectUnauthorized: true });
    this.insecureAgent = new https.Agent({ ...common, rejectUnauthorized: false });
  }

  destroy() {
    for (const agent of [this.httpAgent, this.httpsAgent, this.insecureAgent]) agent.destroy();
  }

  /** The URL parsed, or OutboundError `refused` (scheme, credentials, blocked literal address or name). */
  check(raw: string | URL): URL {
    const checked = checkUrl(raw, !this.guarded);
    if ('refused' in checked) throw new OutboundError('refused', checked.refused);
    return checked.url;
  }

  /** The agent for a URL, e.g. for libraries that make their own requests (openid-client). */
  agentFor(url: URL, verifyTls = true): http.Agent {
    if (url.protocol !== 'https:') return this.httpAgent;
    return verifyTls ? this.httpsAgent : this.insecureAgent;
  }

  /** One request; answers any HTTP status, throws OutboundError when there is no answer. */
  async send(req: OutboundRequest): Promise<OutboundResponse> {
    const url = this.check(req.url);
    const deadline = this.deadline(req.timeoutMs, req.signal);
    try {
      const res = await this.open(url, req, deadline.signal);
      return await readCapped(res, req.maxResponseBytes, deadline.signal);
    } catch (err) {
      throw deadline.explain(err);
    } finally {
      deadline.clear();
    }
  }

  /**
   * A `fetch` for SDKs that accept one (openai, @anthropic-ai/sdk...): the same rules as `send`;
   * the response body streams and fails once it passes `maxResponseBytes` or the timeout.
   */
  fetchFunction(limits: FetchLimits): typeof fetch {
    return async (input, init) => {
      const request = await fetchRequest(input, init);
      const url = this.check(request.url);
      delete request.headers['accept-encoding']; // node:http does not decompress: ask for identity
      const deadline = this.deadline(limits.timeoutMs, request.signal);
      let res: http.IncomingMessage;
      try {
        res = await this.open(url, request, deadline.signal);
      } catch (err) {
        deadline.clear();
        throw deadline.explain(err);
      }
      const responseHeaders = new Headers();
      for (let i = 0; i < res.rawHeaders.length; i += 2) {
        responseHeaders.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
      }
      const status = res.statusCode ?? 0;
      const head = { status, statusText: res.statusMessage, headers: responseHeaders };
      if (NULL_BODY_STATUS.has(status) || request.method === 'HEAD') {
        res.resume();
        deadline.clear();
        return new Response(null, head);
      }
      if (STREAMED_TYPES.test(res.headers['content-type'] ?? '')) {
        return new Response(cappedStream(res, limits.maxResponseBytes, deadline), head);
      }
      // A whole answer (JSON...) is read here: cheaper than a web stream piped through a cap.
      try {
        const read = await readCapped(res, limits.maxResponseBytes + 1, deadline.signal);
        if (read.body.length > limits.maxResponseBytes) {
          throw new OutboundError('network', `Response larger than ${limits.maxResponseBytes} bytes`);
        }
        if (read.truncated) throw new OutboundError('network', 'Request failed: the answer was cut short');
        return new Response(read.body, head);
      } catch (err) {
        throw deadline.explain(err);
      } finally {
        deadline.clear();
      }
    };
  }

  /** Sends the request; resolves on the response head. A kept-alive socket the peer closed meanwhile is retried once. */
  private async open(
    url: URL,
    req: Pick<OutboundRequest, 'method' | 'headers' | 'body' | 'verifyTls'>,
    signal: AbortSignal,
  ): Promise<http.IncomingMessage> {
    try {
      return await this.exchange(url, req, signal);
    } catch (err) {
      if (!(err as { staleSocket?: boolean }).staleSocket || signal.aborted) throw err;
      return this.exchange(url, req, signal);
    }
  }

  private exchange(
    url: URL,
    req: Pick<OutboundRequest, 'method' | 'headers' | 'body' | 'verifyTls'>,
    signal: AbortSignal,
  ): Promise<http.IncomingMessage> {
    const client = url.protocol === 'https:' ? https : http;
    const body = req.body ?? '';
    return new Promise((resolve, reject) => {
      const request = client.request(url, {
        method: req.method ?? 'GET',
        agent: this.agentFor(url, req.verifyTls ?? true),
        headers: { ...req.headers, 'Content-Length': String(Buffer.byteLength(body)) },
        signal,
      });
      request.on('response', resolve);
      request.on('error', (err: NodeJS.ErrnoException) => {
        const stale = request.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
        reject(Object.assign(err, { staleSocket: stale }));
      });
      request.end(body);
    });
  }

  /** An abort signal that fires at the timeout or with the caller's signal, and maps errors to OutboundError. */
  private deadline(timeoutMs: number, callerSignal?: AbortSignal | null) {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new OutboundError('timeout', `Timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    const onAbort = () => controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted) onAbort();
    else callerSignal?.addEventListener('abort', onAbort, { once: true });
    return {
      signal: controller.signal,
      clear: () => {
        clearTimeout(timer);
        callerSignal?.removeEventListener('abort', onAbort);
      },
      explain: (err: unknown): unknown => {
        if (timedOut) return new OutboundError('timeout', `Timed out after ${timeoutMs} ms`);
        if (err instanceof OutboundError || callerSignal?.aborted) return err;
        if (isBlockedTarget(err)) return new OutboundError('refused', err.message);
        return new OutboundError('network', `Request failed: ${(err as Error).message}`);
      },
    };
  }
}

/**
 * Reads at most `max` bytes of the body; the exchange ends there (the socket is dropped). A body
 * cut short by the peer is answered with `truncated`; one cut by the deadline rejects.
 */
function readCapped(res: http.IncomingMessage, max: number, signal: AbortSignal): Promise<OutboundResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    const done = () =>
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), truncated });
    res.on('data', (chunk: Buffer) => {
      if (truncated) return;
      if (size + chunk.length > max) {
        chunks.push(chunk.subarray(0, max - size));
        truncated = true;
        res.destroy();
        return done();
      }
      size += chunk.length;
      chunks.push(chunk);
    });
    res.on('end', done);
    res.on('error', () => undefined); // 'close' follows and settles
    res.on('close', () => {
      if (signal.aborted && !truncated) return reject(signal.reason as Error);
      if (!res.complete) truncated = true;
      done();
    });
  });
}

/** The body as a web stream that errors past `max` bytes and ends the deadline when done. */
function cappedStream(
  res: http.IncomingMessage,
  max: number,
  deadline: { clear: () => void },
): ReadableStream<Uint8Array> {
  let size = 0;
  const cap = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size > max) {
        res.destroy();
        deadline.clear();
        controller.error(new OutboundError('network', `Response larger than ${max} bytes`));
        return;
      }
      controller.enqueue(chunk);
    },
    flush: () => deadline.clear(),
  });
  res.on('close', () => deadline.clear());
  return (Readable.toWeb(res) as ReadableStream<Uint8Array>).pipeThrough(cap);
}
