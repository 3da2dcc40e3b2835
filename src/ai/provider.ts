/** The provider codes as requests name them (any case) and as answers show them (upper case). */
export const PROVIDER_CODES = ['openai', 'anthropic', 'gemini', 'azure-openai', 'ollama'] as const;
export type ProviderCode = (typeof PROVIDER_CODES)[number];

/** `azure-openai` → `AZURE_OPENAI`. */
export const upperCode = (code: ProviderCode) => code.toUpperCase().replace('-', '_');

export interface ChatMessage {
  role: 'user' | 'assistant' | 'system';
  content: string;
  name?: string;
}

/** What an adapter sends: the caller's request with the model already chosen. */
export interface VendorRequest {
  model: string;
  messages: ChatMessage[];
  systemPrompt?: string;
  temperature?: number;
  maxTokens?: number;
}

/** A vendor's answer: its text, the model it names and the tokens its usage reports. */
export interface VendorAnswer {
  content: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
}

/** One piece of a streamed answer: text, or (last) the usage the vendor reported. */
export type StreamPiece = { delta: string } | { done: VendorAnswer };

/**
 * One vendor behind its official SDK. Adapters make exactly one attempt (the SDKs' own retries are
 * off); retries, timeouts and cost belong to the chat service. `signal` aborts the vendor request.
 */
export interface ChatProvider {
  readonly code: ProviderCode;
  readonly available: boolean;
  readonly defaultModel: string;
  readonly availableModels: string[];
  chat(request: VendorRequest, signal: AbortSignal): Promise<VendorAnswer>;
  stream(request: VendorRequest, signal: AbortSignal): AsyncIterable<StreamPiece>;
}

/** The conversation with the system prompt as its first message (vendors that take it inline). */
export function withSystemPrompt(request: VendorRequest): ChatMessage[] {
  return request.systemPrompt
    ? [{ role: 'system', content: request.systemPrompt }, ...request.messages]
    : request.messages;
}
