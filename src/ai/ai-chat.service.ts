import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Principal } from '../access/principal';
import { RateLimiter } from '../rate-limits/rate-limiter';
import { tenantContext } from '../tenancy/tenant-context';
import { AiMetrics } from './ai-metrics';
import { AiProviders } from './ai-providers';
import { AiSettings } from './ai.settings';
import { ChatRequestDto, ChatResultDto } from './dto/chat.dto';
import { ExchangeQueue } from './log/exchange-queue';
import { costOf, PriceTable, priceTable } from './prices';
import { ChatProvider, upperCode, VendorAnswer, VendorRequest } from './provider';
import { backoffMs, chatFailed, pause, retryable } from './vendor-retry';

/** A chat checked and counted against the caller's rate, ready to go to its vendor. */
export interface PreparedChat {
  principal: Principal;
  dto: ChatRequestDto;
  provider: ChatProvider;
  request: VendorRequest;
  started: number;
  /** Time spent waiting on the vendor (attempts and the pauses between them), set once it answered. */
  vendorMs: number;
}

/** One Server-Sent Event of a streamed chat. */
export type ChatEvent =
  | { event: 'delta'; data: { content: string } }
  | { event: 'result'; data: ChatResultDto }
  | { event: 'error'; data: { error: { status: number; code: string; message: string } } };

/**
 * Chats with a vendor: provider check, the per-user rate (Redis), retries of 429/5xx/timeouts with
 * backoff, usage and cost, metrics, and the exchange handed to the log queue when logging is on.
 */
@Injectable()
export class AiChatService {
  private readonly logger = new Logger(AiChatService.name);
  private readonly prices: PriceTable;

  constructor(
    private readonly settings: AiSettings,
    private readonly providers: AiProviders,
    private readonly limiter: RateLimiter,
    private readonly metrics: AiMetrics,
    private readonly queue: ExchangeQueue,
  ) {
    this.prices = priceTable(settings.AI_MODEL_PRICES);
  }

  /** 400 PROVIDER_NOT_AVAILABLE for an unknown or unconfigured provider; 429 over the user's rate. */
  async prepare(principal: Principal, dto: ChatRequestDto): Promise<PreparedChat> {
    const provider = this.providers.usable(dto.provider);
    const client = tenantContext.get().client.identifier;
    await this.limiter.consume('ai-chat', [
      {
        key: ['user', client, principal.userId],
        limit: this.settings.AI_RATE_LIMIT_PER_USER,
        windowSeconds: 60,
      },
    ]);
    const request: VendorRequest = {
      model: dto.model ?? provider.defaultModel,
      messages: dto.messages.map(({ role, content, name }) =>
        name ? { role, content, name } : { role, content },
      ),
      systemPrompt: dto.systemPrompt,
      temperature: dto.temperature,
      maxTokens: dto.maxTokens,
    };
    return { principal, dto, provider, request, started: performance.now(), vendorMs: 0 };
  }

  /** The whole answer at once; 502 AI_CHAT_FAILED once the retries are spent. */
  async chat(chat: PreparedChat, signal: AbortSignal): Promise<ChatResultDto> {
    const vendorStarted = performance.now();
    for (let attempt = 0; ; attempt++) {
      let answer: VendorAnswer;
      try {
        answer = await chat.provider.chat(chat.request, signal);
      } catch (err) {
        if (!(await this.retry(err, attempt, signal))) {
          chat.vendorMs = performance.now() - vendorStarted;
          await this.failed(chat, err);
          throw chatFailed();
        }
        continue;
      }
      chat.vendorMs = performance.now() - vendorStarted;
      return this.succeeded(chat, answer);
    }
  }

  /**
   * The answer as events: deltas, then the result. A failure before the first event throws (the
   * caller answers 502); after it, the stream ends with an error event. Retries happen only before
   * the first delta, so a caller never sees a piece twice.
   */
  async *stream(chat: PreparedChat, signal: AbortSignal): AsyncGenerator<ChatEvent> {
    let begun = false;
    const vendorStarted = performance.now();
    for (let attempt = 0; ; attempt++) {
      try {
        for await (const piece of chat.provider.stream(chat.request, signal)) {
          chat.vendorMs = performance.now() - vendorStarted;
          if ('delta' in piece) {
            begun = true;
            yield { event: 'delta', data: { content: piece.delta } };
          } else {
            yield { event: 'result', data: await this.succeeded(chat, piece.done) };
          }
        }
        return;
      } catch (err) {
        if (begun || !(await this.retry(err, attempt, signal))) {
          chat.vendorMs = performance.now() - vendorStarted;
          await this.failed(chat, err);
          if (!begun) throw chatFailed();
          const { status, code, message } = chatFailed();
          yield { event: 'error', data: { error: { status, code, message } } };
          return;
        }
      }
    }
  }

  /**
   * The gateway's own share of a chat (time since the request arrived, less the time waiting on the
   * vendor) and the vendor's, in ms; the gateway's share is observed in ai_gateway_overhead_seconds.
   */
  timing(chat: PreparedChat, receivedAt: number) {
    const gatewayMs = Math.max(0, performance.now() - receivedAt - chat.vendorMs);
    this.metrics.overhead.observe({ provider: upperCode(chat.provider.code) }, gatewayMs / 1000);
    return { gatewayMs, vendorMs: chat.vendorMs };
  }

  /** Waits before another attempt when the error is worth one and attempts are left. */
  private async retry(err: unknown, attempt: number, signal: AbortSignal): Promise<boolean> {
    if (signal.aborted || attempt >= this.settings.AI_MAX_RETRIES || !retryable(err)) return false;
    try {
      await pause(backoffMs(attempt, this.settings.AI_RETRY_BASE_DELAY_MS), signal);
      return true;
    } catch {
      return false;
    }
  }

  private async succeeded(chat: PreparedChat, answer: VendorAnswer): Promise<ChatResultDto> {
    const latencyMs = Math.round(performance.now() - chat.started);
    const result: ChatResultDto = {
      content: answer.content,
      provider: upperCode(chat.provider.code),
      model: chat.request.model,
      inputTokens: answer.inputTokens,
      outputTokens: answer.outputTokens,
      totalTokens: answer.inputTokens + answer.outputTokens,
      estimatedCost: costOf(
        this.prices,
        [chat.request.model, answer.model],
        answer.inputTokens,
        answer.outputTokens,
      ),
      latencyMs,
    };
    await this.record(chat, result, true);
    return result;
  }

  private async failed(chat: PreparedChat, err: unknown) {
    const message = err instanceof Error ? err.message : String(err);
    this.logger.warn(`AI chat via ${chat.provider.code} (${chat.request.model}) failed: ${message}`);
    await this.record(
      chat,
      {
        content: '',
        provider: upperCode(chat.provider.code),
        model: chat.request.model,
        inputTokens: 0,
        outputTokens: 0,
        totalTokens: 0,
        estimatedCost: 0,
        latencyMs: Math.round(performance.now() - chat.started),
      },
      false,
    );
  }

  /** Metrics always; the exchange (never its text) to the log queue when logging is on. */
  private async record(chat: PreparedChat, result: ChatResultDto, success: boolean) {
    this.metrics.record({ ...result, success, cost: result.estimatedCost });
    if (!this.settings.AI_LOGGING_ENABLED) return;
    const { principal, dto } = chat;
    try {
      await this.queue.enqueue({
        id: randomUUID(),
        occurredAt: new Date().toISOString(),
        userId: principal.userId,
        username: principal.username ?? principal.email,
        companyId: principal.companyId,
        provider: result.provider,
        model: result.model,
        inputTokens: result.inputTokens,
        outputTokens: result.outputTokens,
        totalTokens: result.totalTokens,
        estimatedCost: result.estimatedCost,
        latencyMs: result.latencyMs,
        conversationId: dto.conversationId ?? null,
        metadata: dto.metadata ?? null,
        success,
      });
    } catch (err) {
      this.logger.error(`AI exchange not queued for the log: ${(err as Error).message}`);
    }
  }
}
