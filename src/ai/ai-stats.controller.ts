import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from '../access/access-rules';
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

const LOGGING_OFF = {
  description: 'LOGGING_NOT_ENABLED while conversation logging is off; VALIDATION_ERROR',
};

@ApiTags('AI')
@Controller('api/ai/stats')
export class AiStatsController {
  constructor(private readonly stats: AiStatsService) {}

  @Get()
  @Authenticated({ permissions: ['ai:read'], minRole: 'MANAGER' })
  @ApiOperation({
    summary: 'Exchanges and tokens by provider and model, latency by model (default: last 30 days)',
  })
  @ApiOkResponse({ type: StatsEnvelopeDto })
  @ApiBadRequestResponse(LOGGING_OFF)
  overview(@CurrentPrincipal() principal: Principal, @Query() q: StatsQueryDto) {
    return this.stats.stats(principal, q);
  }

  @Get('costs')
  @Authenticated({ permissions: ['ai:read'], minRole: 'MANAGER' })
  @ApiOperation({ summary: 'Cost over time (UTC windows), by provider and by user, highest first' })
  @ApiOkResponse({ type: CostsEnvelopeDto })
  @ApiBadRequestResponse(LOGGING_OFF)
  costs(@CurrentPrincipal() principal: Principal, @Query() q: CostsQueryDto) {
    return this.stats.costs(principal, q);
  }

  @Get('conversations')
  @Authenticated({ permissions: ['ai:read'], minRole: 'MANAGER' })
  @ApiOperation({
    summary: 'Exchanges and distinct conversations over time (default: last 7 days, 1h windows)',
  })
  @ApiOkResponse({ type: ConversationsEnvelopeDto })
  @ApiBadRequestResponse(LOGGING_OFF)
  conversations(@CurrentPrincipal() principal: Principal, @Query() q: ConversationsQueryDto) {
    return this.stats.conversations(principal, q);
  }

  @Get('user/:username')
  @Authenticated({ permissions: ['ai:read'] })
  @ApiOperation({ summary: "A user's exchanges, newest first (one's own; anyone's from MANAGER up)" })
  @ApiParam({ name: 'username', description: 'Username, or e-mail for users without one' })
  @ApiOkResponse({ type: ExchangesEnvelopeDto })
  @ApiBadRequestResponse(LOGGING_OFF)
  user(
    @CurrentPrincipal() principal: Principal,
    @Param('username') username: string,
    @Query() q: UserExchangesQueryDto,
  ) {
    return this.stats.userExchanges(principal, username, q);
  }
}
