import { Ollama } from 'ollama';
import { ChatProvider, StreamPiece, VendorAnswer, VendorRequest, withSystemPrompt } from '../provider';
import { unique } from './openai.adapter';

/**
 * A local Ollama runner through the `ollama` library (`/api/chat`, NDJSON when streaming). The
 * library has no per-request signal, so each call gets a client whose fetch carries the caller's.
 */
export class OllamaAdapter implements ChatProvider {
  readonly code = 'ollama' as const;
  readonly availableModels: string[];

  constructor(
    private readonly host: string | undefined,
    readonly defaultModel: string,
    private readonly fetch: typeof globalThis.fetch,
  ) {
    this.availableModels = unique([defaultModel]);
  }

  get available() {
    return !!this.host;
  }

  private client(signal: AbortSignal) {
    const fetch: typeof globalThis.fetch = (input, init) =>
      this.fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
    return new Ollama({ host: this.host!, fetch });
  }

  private body(request: VendorRequest) {
    return {
      model: request.model,
      messages: withSystemPrompt(request),
      options: { temperature: request.temperature, num_predict: request.maxTokens },
    };
  }

  async chat(request: VendorRequest, signal: AbortSignal): Promise<VendorAnswer> {
    const answer = await this.client(signal).chat({ ...this.body(request), stream: false });
    return {
      content: answer.message?.content ?? '',
      model: answer.model || request.model,
      inputTokens: answer.prompt_eval_count ?? 0,
      outputTokens: answer.eval_count ?? 0,
    };
  }

  async *stream(request: VendorRequest, signal: AbortSignal): AsyncIterable<StreamPiece> {
    const parts = await this.client(signal).chat({ ...this.body(request), stream: true });
    const done: VendorAnswer = { content: '', model: request.model, inputTokens: 0, outputTokens: 0 };
    for await (const part of parts) {
      if (part.model) done.model = part.model;
      const text = part.message?.content;
      if (text) {
        done.content += text;
        yield { delta: text };
      }
      if (part.done) {
        done.inputTokens = part.prompt_eval_count ?? 0;
        done.outputTokens = part.eval_count ?? 0;
      }
    }
    yield { done };
  }
}
