import OpenAI, { AzureOpenAI } from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import {
  ChatProvider,
  ProviderCode,
  StreamPiece,
  VendorAnswer,
  VendorRequest,
  withSystemPrompt,
} from '../provider';

/** OpenAI's chat completions through the `openai` SDK; Azure uses its AzureOpenAI client. */
export class OpenAiAdapter implements ChatProvider {
  constructor(
    readonly code: ProviderCode,
    private readonly client: OpenAI | null,
    readonly defaultModel: string,
    readonly availableModels: string[],
  ) {}

  get available() {
    return this.client !== null;
  }

  static openai(key: string | undefined, baseURL: string, model: string, fetch: typeof globalThis.fetch) {
    const client = key ? new OpenAI({ apiKey: key, baseURL, fetch, maxRetries: 0 }) : null;
    return new OpenAiAdapter('openai', client, model, unique([model, 'gpt-4o', 'gpt-4o-mini', 'gpt-4.1']));
  }

  /** Azure: the model names the deployment (`/openai/deployments/{model}/chat/completions`), AZURE_OPENAI_DEPLOYMENT by default. */
  static azure(
    settings: { endpoint?: string; key?: string; deployment?: string; apiVersion: string },
    fetch: typeof globalThis.fetch,
  ) {
    const { endpoint, key, deployment, apiVersion } = settings;
    const client =
      endpoint && key && deployment
        ? new AzureOpenAI({ baseURL: azureBaseUrl(endpoint), apiKey: key, apiVersion, fetch, maxRetries: 0 })
        : null;
    return new OpenAiAdapter('azure-openai', client, deployment ?? '', deployment ? [deployment] : []);
  }

  private body(request: VendorRequest) {
    return {
      model: request.model,
      messages: withSystemPrompt(request) as ChatCompletionMessageParam[],
      temperature: request.temperature,
      max_tokens: request.maxTokens,
    };
  }

  async chat(request: VendorRequest, signal: AbortSignal): Promise<VendorAnswer> {
    const answer = await this.client!.chat.completions.create(this.body(request), { signal });
    return {
      content: answer.choices[0]?.message?.content ?? '',
      model: answer.model || request.model,
      inputTokens: answer.usage?.prompt_tokens ?? 0,
      outputTokens: answer.usage?.completion_tokens ?? 0,
    };
  }

  async *stream(request: VendorRequest, signal: AbortSignal): AsyncIterable<StreamPiece> {
    const chunks = await this.client!.chat.completions.create(
      { ...this.body(request), stream: true, stream_options: { include_usage: true } },
      { signal },
    );
    const done: VendorAnswer = { content: '', model: request.model, inputTokens: 0, outputTokens: 0 };
    for await (const chunk of chunks) {
      if (chunk.model) done.model = chunk.model;
      const text = chunk.choices[0]?.delta?.content;
      if (text) {
        done.content += text;
        yield { delta: text };
      }
      if (chunk.usage) {
        done.inputTokens = chunk.usage.prompt_tokens;
        done.outputTokens = chunk.usage.completion_tokens;
      }
    }
    yield { done };
  }
}

export const unique = (values: string[]) => [...new Set(values.filter(Boolean))];

/**
 * The Azure client's base URL, built from the endpoint as the SDK itself would. Given the endpoint
 * instead, the SDK would also read OPENAI_BASE_URL from the environment (set for OpenAI behind a
 * proxy) and refuse the two together at start.
 */
function azureBaseUrl(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, '')}/openai`;
}
