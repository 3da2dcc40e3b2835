import { Controller, Param, Query } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { Route } from '../access/route.decorator';
import { CurrentPrincipal } from '../access/access-rules';
import { Principal } from '../access/principal';
import { AiStatsService } from './ai-stats.service';
import {
  ConversationsEnvelopeDto,
  ConversationsQueryDto,
  CostsEnvelopeDto,
  CostsQueryDto,
  ExchangesEnvelopeDto,
  StatsEnvelopeDto,
  StatsQueryDto,
  UserExchangesQueryDto,
} from './dto/stats.dto';

const LOGGING_OFF = 'LOGGING_NOT_ENABLED while conversation logging is off; VALIDATION_ERROR';

@ApiTags('AI')
@Controller('api/ai/stats')
export class AiStatsController {
  constructor(private readonly stats: AiStatsService) {}

  @Route('GET', '', {
    summary: 'Exchanges and tokens by provider and model, latency by model (default: last 30 days)',
    permissions: ['ai:read'],
    minRole: 'MANAGER',
    response: StatsEnvelopeDto,
    badRequest: LOGGING_OFF,
  })
  overview(@CurrentPrincipal() principal: Principal, @Query() q: StatsQueryDto) {
    return this.stats.stats(principal, q);
  }

  @Route('GET', 'costs', {
    summary: 'Cost over time (UTC windows), by provider and by user, highest first',
    permissions: ['ai:read'],
    minRole: 'MANAGER',
    response: CostsEnvelopeDto,
    badRequest: LOGGING_OFF,
  })
  costs(@CurrentPrincipal() principal: Principal, @Query() q: CostsQueryDto) {
    return this.stats.costs(principal, q);
  }

  @Route('GET', 'conversations', {
    summary: 'Exchanges and distinct conversations over time (default: last 7 days, 1h windows)',
    permissions: ['ai:read'],
    minRole: 'MANAGER',
    response: ConversationsEnvelopeDto,
    badRequest: LOGGING_OFF,
  })
  conversations(@CurrentPrincipal() principal: Principal, @Query() q: ConversationsQueryDto) {
    return this.stats.conversations(principal, q);
  }

  @Route('GET', 'user/:username', {
    summary: "A user's exchanges, newest first (one's own; anyone's from MANAGER up)",
    permissions: ['ai:read'],
    response: ExchangesEnvelopeDto,
    badRequest: LOGGING_OFF,
  })
  @ApiParam({ name: 'username', description: 'Username, or e-mail for users without one' })
  user(
    @CurrentPrincipal() principal: Principal,
    @Param('username') username: string,
    @Query() q: UserExchangesQueryDto,
  ) {
    return this.stats.userExchanges(principal, username, q);
  }
}
