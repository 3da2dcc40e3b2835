import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Authenticated, CurrentPrincipal } from '../access/access-rules';
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

  @Post('chat')
  @HttpCode(200)
  @Authenticated({ permissions: ['ai:create'] })
  @ApiOperation({
    summary: 'Chat with a provider',
    description:
      'With `stream: true` the answer is `text/event-stream`: `delta` events `{ content }`, then `result` ' +
      'with the chat result; a failure after the first event ends the stream with an `error` event.',
  })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({
    type: ChatResultEnvelopeDto,
    headers: {
      'Server-Timing': {
        description:
          "Whole answers: `gateway;dur=<ms>, vendor;dur=<ms>`, the gateway's own time and the vendor's",
        schema: { type: 'string' },
      },
    },
  })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR, or PROVIDER_NOT_AVAILABLE' })
  @ApiTooManyRequestsResponse({ description: 'RATE_LIMITED: over the per-user chat rate' })
  @ApiBadGatewayResponse({ description: 'AI_CHAT_FAILED: the vendor failed after the retries' })
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

  @Get('providers')
  @Authenticated({ permissions: ['ai:read'] })
  @ApiOperation({ summary: 'Every provider, whether it is configured, and whether logging is on' })
  @ApiOkResponse({ type: ProvidersEnvelopeDto })
  listProviders() {
    return {
      data: {
        providers: this.providers.list().map((p) => this.providers.info(p)),
        availableProviders: this.providers.availableCodes(),
        loggingEnabled: this.settings.AI_LOGGING_ENABLED,
      },
    };
  }

  @Get('providers/:providerCode')
  @Authenticated({ permissions: ['ai:read'] })
  @ApiOperation({ summary: 'One provider (code in any case)' })
  @ApiParam({ name: 'providerCode', example: 'openai' })
  @ApiOkResponse({ type: ProviderInfoEnvelopeDto })
  @ApiBadRequestResponse({ description: 'PROVIDER_NOT_AVAILABLE: unknown provider code' })
  provider(@Param('providerCode') code: string) {
    const provider = this.providers.find(code);
    if (!provider) throw providerNotAvailable();
    return { data: this.providers.info(provider) };
  }

  @Get('health')
  @Authenticated({ permissions: ['ai:read'] })
  @ApiOperation({ summary: 'Gateway health: UP while at least one provider is configured' })
  @ApiOkResponse({ type: AiHealthEnvelopeDto })
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
