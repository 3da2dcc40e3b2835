import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../common/errors/app-error';

export const chatFailed = () => new AppError(502, 'AI_CHAT_FAILED', 'AI chat failed');

/** The HTTP status an SDK error carries (openai, anthropic and genai: `status`; ollama: `status_code`). */
export function vendorStatus(err: unknown): number | undefined {
  if (!err || typeof err !== 'object') return undefined;
  const e = err as { status?: unknown; status_code?: unknown };
  const status = typeof e.status === 'number' ? e.status : e.status_code;
  return typeof status === 'number' && status > 0 ? status : undefined;
}

/**
 * Worth another attempt: the vendor was busy (429, 408) or failed (5xx), or there was no answer
 * at all (timeout, connection reset). Other 4xx answers would fail the same way again.
 */
export function retryable(err: unknown): boolean {
  const status = vendorStatus(err);
  return status === undefined || status === 408 || status === 429 || status >= 500;
}

/** Delay before retry `attempt` (0-based): base, 2×base, 4×base... with ±20 % jitter, at most 10 s. */
export function backoffMs(attempt: number, baseMs: number): number {
  const delay = Math.min(10000, baseMs * 2 ** attempt);
  return Math.round(delay * (0.8 + Math.random() * 0.4));
}

/** Waits `ms` unless the caller goes away first (then rejects with the abort). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return sleep(ms, undefined, { signal });
}
