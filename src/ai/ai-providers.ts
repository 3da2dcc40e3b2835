import { Injectable } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { OutboundHttp } from '../outbound/outbound-http';
import { AnthropicAdapter } from './adapters/anthropic.adapter';
import { GeminiAdapter } from './adapters/gemini.adapter';
import { OllamaAdapter } from './adapters/ollama.adapter';
import { OpenAiAdapter } from './adapters/openai.adapter';
import { AiSettings } from './ai.settings';
import { ChatProvider, PROVIDER_CODES, ProviderCode, upperCode } from './provider';

/** Vendor answers larger than this are cut (the SDK then fails the call). */
const MAX_VENDOR_ANSWER_BYTES = 16 * 1024 * 1024;

export const providerNotAvailable = () =>
  AppError.badRequest('Provider not available', 'PROVIDER_NOT_AVAILABLE');

/**
 * The five adapters, built once from the settings. Each SDK gets the trusted outbound fetch (vendor
 * URLs are operator settings): timeouts per attempt, a body cap, no redirects, shared keep-alive.
 */
@Injectable()
export class AiProviders {
  private readonly byCode: Map<ProviderCode, ChatProvider>;

  constructor(settings: AiSettings, outbound: OutboundHttp) {
    const fetch = outbound
      .trusted()
      .fetchFunction({ timeoutMs: settings.AI_TIMEOUT_MS, maxResponseBytes: MAX_VENDOR_ANSWER_BYTES });
    const s = settings;
    const all: ChatProvider[] = [
      OpenAiAdapter.openai(s.OPENAI_API_KEY, s.OPENAI_BASE_URL, s.OPENAI_DEFAULT_MODEL, fetch),
      new AnthropicAdapter(s.ANTHROPIC_API_KEY, s.ANTHROPIC_BASE_URL, s.ANTHROPIC_DEFAULT_MODEL, fetch),
      new GeminiAdapter(s.GEMINI_API_KEY, s.GEMINI_BASE_URL, s.GEMINI_DEFAULT_MODEL, fetch),
      OpenAiAdapter.azure(
        {
          endpoint: s.AZURE_OPENAI_ENDPOINT,
          key: s.AZURE_OPENAI_API_KEY,
          deployment: s.AZURE_OPENAI_DEPLOYMENT,
          apiVersion: s.AZURE_OPENAI_API_VERSION,
        },
        fetch,
      ),
      new OllamaAdapter(s.OLLAMA_BASE_URL, s.OLLAMA_DEFAULT_MODEL, fetch),
    ];
    this.byCode = new Map(all.map((p) => [p.code, p]));
  }

  list(): ChatProvider[] {
    return [...this.byCode.values()];
  }

  availableCodes(): string[] {
    return this.list()
      .filter((p) => p.available)
      .map((p) => upperCode(p.code));
  }

  /** The provider a request names (any case, `_` for `-` too), or null when the code is unknown. */
  find(code: string): ChatProvider | null {
    const normal = code.trim().toLowerCase().replace('_', '-') as ProviderCode;
    return PROVIDER_CODES.includes(normal) ? this.byCode.get(normal)! : null;
  }

  /** A configured provider, else 400 PROVIDER_NOT_AVAILABLE. */
  usable(code: string): ChatProvider {
    const provider = this.find(code);
    if (!provider?.available) throw providerNotAvailable();
    return provider;
  }

  info(provider: ChatProvider) {
    return {
      provider: upperCode(provider.code),
      available: provider.available,
      defaultModel: provider.defaultModel,
      availableModels: provider.availableModels,
    };
  }
}
