import { Content, GenerateContentResponse, GoogleGenAI } from '@google/genai';
import { ChatProvider, StreamPiece, VendorAnswer, VendorRequest } from '../provider';
import { unique } from './openai.adapter';

/** Gemini's generateContent through `@google/genai`; system text goes to systemInstruction. */
export class GeminiAdapter implements ChatProvider {
  readonly code = 'gemini' as const;
  readonly availableModels: string[];
  private readonly client: GoogleGenAI | null;

  constructor(
    key: string | undefined,
    baseUrl: string,
    readonly defaultModel: string,
    fetch: typeof globalThis.fetch,
  ) {
    this.client = key
      ? new GoogleGenAI({
          apiKey: key,
          vertexai: false,
          httpOptions: { baseUrl, fetch, retryOptions: { attempts: 1 } },
        })
      : null;
    this.availableModels = unique([defaultModel, 'gemini-2.0-flash', 'gemini-2.5-pro']);
  }

  get available() {
    return this.client !== null;
  }

  private params(request: VendorRequest, abortSignal: AbortSignal) {
    const system = [
      request.systemPrompt,
      ...request.messages.filter((m) => m.role === 'system').map((m) => m.content),
    ]
      .filter(Boolean)
      .join('\n\n');
    const contents: Content[] = request.messages
      .filter((m) => m.role !== 'system')
      .map((m) => ({ role: m.role === 'assistant' ? 'model' : 'user', parts: [{ text: m.content }] }));
    return {
      model: request.model,
      contents,
      config: {
        abortSignal,
        ...(system ? { systemInstruction: system } : {}),
        temperature: request.temperature,
        maxOutputTokens: request.maxTokens,
      },
    };
  }

  private answer(response: GenerateContentResponse, model: string, content: string): VendorAnswer {
    return {
      content,
      model: response.modelVersion || model,
      inputTokens: response.usageMetadata?.promptTokenCount ?? 0,
      outputTokens: response.usageMetadata?.candidatesTokenCount ?? 0,
    };
  }

  async chat(request: VendorRequest, signal: AbortSignal): Promise<VendorAnswer> {
    const response = await this.client!.models.generateContent(this.params(request, signal));
    return this.answer(response, request.model, response.text ?? '');
  }

  async *stream(request: VendorRequest, signal: AbortSignal): AsyncIterable<StreamPiece> {
    const chunks = await this.client!.models.generateContentStream(this.params(request, signal));
    let content = '';
    let last: GenerateContentResponse | undefined;
    for await (const chunk of chunks) {
      last = chunk;
      const text = chunk.text;
      if (text) {
        content += text;
        yield { delta: text };
      }
    }
    yield {
      done: last
        ? this.answer(last, request.model, content)
        : { content, model: request.model, inputTokens: 0, outputTokens: 0 },
    };
  }
}
