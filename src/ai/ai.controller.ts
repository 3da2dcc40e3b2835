import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
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
import type { Response } from 'express';
import { Authenticated, CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
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
  @ApiOkResponse({ type: ChatResultEnvelopeDto })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR, or PROVIDER_NOT_AVAILABLE' })
  @ApiTooManyRequestsResponse({ description: 'RATE_LIMITED: over the per-user chat rate' })
  @ApiBadGatewayResponse({ description: 'AI_CHAT_FAILED: the vendor failed after the retries' })
  async chat(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: ChatRequestDto,
    @Res() res: Response,
  ): Promise<void> {
    const prepared = await this.chats.prepare(principal, dto);
    const abort = new AbortController();
    // The caller going away (before the whole answer was written) aborts the vendor request.
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    if (dto.stream) return streamEvents(res, this.chats.stream(prepared, abort.signal));
    const data = await this.chats.chat(prepared, abort.signal);
    if (!res.destroyed) res.status(200).json({ data });
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
