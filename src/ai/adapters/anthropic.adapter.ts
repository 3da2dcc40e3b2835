import Anthropic from '@anthropic-ai/sdk';
import { ChatProvider, StreamPiece, VendorAnswer, VendorRequest } from '../provider';
import { unique } from './openai.adapter';

/** Anthropic has no default for max_tokens; this one is used when the caller gives none. */
const DEFAULT_MAX_TOKENS = 1024;

/** Anthropic's messages API through `@anthropic-ai/sdk`; system messages go to its `system` field. */
export class AnthropicAdapter implements ChatProvider {
  readonly code = 'anthropic' as const;
  readonly availableModels: string[];
  private readonly client: Anthropic | null;

  constructor(
    key: string | undefined,
    baseURL: string,
    readonly defaultModel: string,
    fetch: typeof globalThis.fetch,
  ) {
    this.client = key ? new Anthropic({ apiKey: key, baseURL, fetch, maxRetries: 0 }) : null;
    this.availableModels = unique([
      defaultModel,
      'claude-3-5-haiku-latest',
      'claude-3-5-sonnet-latest',
      'claude-sonnet-4-0',
    ]);
  }

  get available() {
    return this.client !== null;
  }

  private body(request: VendorRequest) {
    const system = [
      request.systemPrompt,
      ...request.messages.filter((m) => m.role === 'system').map((m) => m.content),
    ]
      .filter(Boolean)
      .join('\n\n');
    return {
      model: request.model,
      max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
      ...(system ? { system } : {}),
      temperature: request.temperature,
      messages: request.messages
        .filter((m) => m.role !== 'system')
        .map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content })),
    };
  }

  async chat(request: VendorRequest, signal: AbortSignal): Promise<VendorAnswer> {
    const answer = await this.client!.messages.create(this.body(request), { signal });
    return {
      content: answer.content.map((block) => (block.type === 'text' ? block.text : '')).join(''),
      model: answer.model || request.model,
      inputTokens: answer.usage.input_tokens,
      outputTokens: answer.usage.output_tokens,
    };
  }

  async *stream(request: VendorRequest, signal: AbortSignal): AsyncIterable<StreamPiece> {
    const events = await this.client!.messages.create({ ...this.body(request), stream: true }, { signal });
    const done: VendorAnswer = { content: '', model: request.model, inputTokens: 0, outputTokens: 0 };
    for await (const event of events) {
      if (event.type === 'message_start') {
        done.model = event.message.model || done.model;
        done.inputTokens = event.message.usage.input_tokens;
        done.outputTokens = event.message.usage.output_tokens;
      } else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
        done.content += event.delta.text;
        yield { delta: event.delta.text };
      } else if (event.type === 'message_delta') {
        done.outputTokens = event.usage.output_tokens;
      }
    }
    yield { done };
  }
}
