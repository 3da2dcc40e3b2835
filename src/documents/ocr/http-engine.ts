import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { StoresSettings } from '../../config/stores.settings';
import { OutboundError } from '../../outbound/outbound-client';
import { OutboundHttp } from '../../outbound/outbound-http';
import { OcrEngine, OcrResult, OcrServiceStatus, OcrUnavailableError } from './ocr-engine';

const DEFAULT_URL = 'http://localhost:8000';
const STATUS_TIMEOUT_MS = 3000;
const MAX_ANSWER_BYTES = 50 * 1024 * 1024;

/** A multipart/form-data body with the `file` part and the `lang` field. */
function multipart(content: Buffer, mime: string, lang: string): { body: Buffer; type: string } {
  const boundary = `----svc-ocr-${randomUUID()}`;
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="lang"\r\n\r\n${lang}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="document"\r\n` +
    `Content-Type: ${mime}\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

/**
 * The HTTP OCR service: `POST {OCR_SERVICE_URL}{OCR_ENDPOINT}` with the file and the caller's language
 * code, answering `{ text, confidence (0..1), pages? }`; `GET {OCR_SERVICE_URL}/health` tells whether it
 * is up and its version. Calls go through the trusted outbound client (an operator's URL).
 */
@Injectable()
export class HttpOcrEngine implements OcrEngine {
  readonly name = 'http' as const;

  constructor(
    private readonly stores: StoresSettings,
    private readonly outbound: OutboundHttp,
  ) {}

  get baseUrl(): string {
    return (this.stores.OCR_SERVICE_URL ?? DEFAULT_URL).replace(/\/+$/, '');
  }

  async status(): Promise<OcrServiceStatus> {
    try {
      const res = await this.outbound.trusted().send({
        url: `${this.baseUrl}/health`,
        timeoutMs: STATUS_TIMEOUT_MS,
        maxResponseBytes: 64 * 1024,
      });
      if (res.status >= 400) return { available: false, url: this.baseUrl, version: 'unknown' };
      const version = parseVersion(res.body);
      return { available: true, url: this.baseUrl, version };
    } catch {
      return { available: false, url: this.baseUrl, version: 'unknown' };
    }
  }

  async recognize(content: Buffer, mime: string, language: string): Promise<OcrResult> {
    const { body, type } = multipart(content, mime, language);
    let res;
    try {
      res = await this.outbound.trusted().send({
        url: `${this.baseUrl}${this.stores.OCR_ENDPOINT}`,
        method: 'POST',
        headers: { 'content-type': type, accept: 'application/json' },
        body,
        timeoutMs: this.stores.OCR_TIMEOUT_SECONDS * 1000,
        maxResponseBytes: MAX_ANSWER_BYTES,
      });
    } catch (err) {
      if (err instanceof OutboundError && err.kind === 'timeout') {
        throw new Error(`OCR service timed out after ${this.stores.OCR_TIMEOUT_SECONDS} seconds`);
      }
      throw new OcrUnavailableError(`OCR service is not available: ${(err as Error).message}`);
    }
    if (res.status >= 500) throw new OcrUnavailableError(`OCR service answered ${res.status}`);
    if (res.status >= 400) throw new Error(`OCR service refused the file (${res.status})`);
    let answer: { text?: unknown; confidence?: unknown; pages?: unknown };
    try {
      answer = JSON.parse(res.body.toString('utf8')) as typeof answer;
    } catch {
      throw new Error('OCR service answered something other than JSON');
    }
    if (typeof answer.text !== 'string') throw new Error('OCR service answered no text');
    const confidence =
      typeof answer.confidence === 'number' ? Math.max(0, Math.min(1, answer.confidence)) : 0;
    const pages =
      Number.isInteger(answer.pages) && (answer.pages as number) > 0 ? (answer.pages as number) : 1;
    return { text: answer.text, confidence, pages };
  }
}

function parseVersion(body: Buffer): string {
  try {
    const json = JSON.parse(body.toString('utf8')) as { version?: unknown };
    return typeof json.version === 'string' ? json.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
