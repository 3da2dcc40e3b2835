import { Body, Controller, Param, Req, Res } from '@nestjs/common';
import { ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Route } from '../access/route.decorator';
import { CurrentPrincipal } from '../access/access-rules';
import { Principal } from '../access/principal';
import { receivedAt } from '../observability/logging/request-lines';
import { AiChatService } from './ai-chat.service';
import { AiProviders, providerNotAvailable } from './ai-providers';
import { AiSettings } from './ai.settings';
import {
  AiHealthEnvelopeDto,
  ChatRequestDto,
  ChatResultEnvelopeDto,
  ProviderInfoEnvelopeDto,
  ProvidersEnvelopeDto,
} from './dto/chat.dto';
import { streamEvents } from './sse';

@ApiTags('AI')
@Controller('api/ai')
export class AiController {
  constructor(
    private readonly chats: AiChatService,
    private readonly providers: AiProviders,
    private readonly settings: AiSettings,
  ) {}

  @Route('POST', 'chat', {
    summary: 'Chat with a provider',
    description:
      'With `stream: true` the answer is `text/event-stream`: `delta` events `{ content }`, then `result` ' +
      'with the chat result; a failure after the first event ends the stream with an `error` event.',
    permissions: ['ai:create'],
    response: ChatResultEnvelopeDto,
    responseHeaders: {
      'Server-Timing': {
        description:
          "Whole answers: `gateway;dur=<ms>, vendor;dur=<ms>`, the gateway's own time and the vendor's",
        schema: { type: 'string' },
      },
    },
    status: 200,
    badRequest: 'VALIDATION_ERROR, or PROVIDER_NOT_AVAILABLE',
    answers: {
      429: 'RATE_LIMITED: over the per-user chat rate',
      502: 'AI_CHAT_FAILED: the vendor failed after the retries',
    },
  })
  @ApiProduces('application/json', 'text/event-stream')
  async chat(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: ChatRequestDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const prepared = await this.chats.prepare(principal, dto);
    const abort = new AbortController();
    // The caller going away (before the whole answer was written) aborts the vendor request.
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    if (dto.stream) {
      await streamEvents(res, this.chats.stream(prepared, abort.signal));
      this.chats.timing(prepared, receivedAt(req));
      return;
    }
    const data = await this.chats.chat(prepared, abort.signal);
    if (res.destroyed) return;
    const { gatewayMs, vendorMs } = this.chats.timing(prepared, receivedAt(req));
    res.set('Server-Timing', `gateway;dur=${gatewayMs.toFixed(2)}, vendor;dur=${vendorMs.toFixed(2)}`);
    res.status(200).json({ data });
  }

  @Route('GET', 'providers', {
    summary: 'Every provider, whether it is configured, and whether logging is on',
    permissions: ['ai:read'],
    response: ProvidersEnvelopeDto,
  })
  listProviders() {
    return {
      data: {
        providers: this.providers.list().map((p) => this.providers.info(p)),
        availableProviders: this.providers.availableCodes(),
        loggingEnabled: this.settings.AI_LOGGING_ENABLED,
      },
    };
  }

  @Route('GET', 'providers/:providerCode', {
    summary: 'One provider (code in any case)',
    permissions: ['ai:read'],
    response: ProviderInfoEnvelopeDto,
    badRequest: 'PROVIDER_NOT_AVAILABLE: unknown provider code',
  })
  @ApiParam({ name: 'providerCode', example: 'openai' })
  provider(@Param('providerCode') code: string) {
    const provider = this.providers.find(code);
    if (!provider) throw providerNotAvailable();
    return { data: this.providers.info(provider) };
  }

  @Route('GET', 'health', {
    summary: 'Gateway health: UP while at least one provider is configured',
    permissions: ['ai:read'],
    response: AiHealthEnvelopeDto,
  })
  health() {
    const available = this.providers.availableCodes();
    return {
      data: {
        status: available.length ? 'UP' : 'DOWN',
        availableProviders: available,
        providerCount: available.length,
        loggingEnabled: this.settings.AI_LOGGING_ENABLED,
      },
    };
  }
}
