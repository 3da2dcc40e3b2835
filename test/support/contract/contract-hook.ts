import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { ObservedResponse, ResponseContract } from './response-contract';

/**
 * A request carrying this header is not checked: only for an answer a test makes malformed on
 * purpose. Its value says why.
 */
export const CONTRACT_EXEMPT_HEADER = 'x-test-contract-exempt';

/** Bodies larger than this are checked for status and content type only. */
const KEPT_BODY_BYTES = 2 * 1024 * 1024;

const violations: string[] = [];

/** The violations seen since the last call, emptied. */
export function takeContractViolations(): string[] {
  return violations.splice(0, violations.length);
}

let checkedIn: Promise<ResponseContract> | undefined;

/** The checked-in openapi.json, loaded once per test file. */
export function checkedInContract(): Promise<ResponseContract> {
  checkedIn ??= ResponseContract.fromCheckedInDocument();
  return checkedIn;
}

/**
 * Checks every answer `server` sends against `contract`, just before its last bytes leave, so a
 * violation is recorded before the test can see the answer.
 */
export function checkResponses(
  server: Server,
  contract: ResponseContract,
  record: (violation: string) => void = (violation) => violations.push(violation),
): void {
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!req.headers[CONTRACT_EXEMPT_HEADER]) watch(req, res, contract, record);
    for (const listener of listeners) listener.call(server, req, res);
  });
}

function watch(
  req: IncomingMessage,
  res: ServerResponse,
  contract: ResponseContract,
  record: (violation: string) => void,
): void {
  // Routers mounted under a prefix rewrite req.url; the contract speaks of the URL as sent.
  const url = req.url ?? '/';
  const chunks: Buffer[] = [];
  let bytes = 0;
  const keep = (chunk: unknown, encoding: unknown) => {
    let buffer: Buffer | undefined;
    if (typeof chunk === 'string') {
      buffer = Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    } else if (chunk instanceof Uint8Array) buffer = Buffer.from(chunk);
    if (!buffer) return;
    bytes += buffer.length;
    if (bytes <= KEPT_BODY_BYTES) chunks.push(buffer);
  };
  // Content type given to writeHead alone is not visible to getHeader.
  let contentTypeOfHead: string | undefined;
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    for (const arg of args.slice(1)) {
      if (!arg || typeof arg !== 'object' || Array.isArray(arg)) continue;
      for (const [name, value] of Object.entries(arg)) {
        if (name.toLowerCase() === 'content-type') contentTypeOfHead = String(value);
      }
    }
    return Reflect.apply(writeHead, this, args) as ServerResponse;
  };
  const write = res.write;
  const end = res.end;
  let checked = false;
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    keep(chunk, rest[0]);
    return Reflect.apply(write, this, [chunk, ...rest]) as boolean;
  } as ServerResponse['write'];
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (!checked) {
      checked = true;
      keep(chunk, rest[0]);
      const observed: ObservedResponse = {
        method: req.method ?? 'GET',
        url,
        status: res.statusCode,
        contentType: res.getHeader('content-type')?.toString() ?? contentTypeOfHead,
        bytes,
        body: bytes <= KEPT_BODY_BYTES ? Buffer.concat(chunks).toString('utf8') : undefined,
      };
      try {
        for (const problem of contract.problems(observed)) {
          record(`${observed.method} ${observed.url} -> ${observed.status}: ${problem}`);
        }
      } catch (err) {
        record(`${observed.method} ${observed.url} -> ${observed.status}: check failed: ${String(err)}`);
      }
    }
    return Reflect.apply(end, this, [chunk, ...rest]) as ServerResponse;
  } as ServerResponse['end'];
}
