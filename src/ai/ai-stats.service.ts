import { Inject, Injectable } from '@nestjs/common';
import { Principal } from '../access/principal';
import { hasRank } from '../access/roles';
import { AppError } from '../common/errors/app-error';
import { companyScope } from '../access/company-rule';
import { parseDateTime } from '../common/validation/datetime';
import { AiSettings } from './ai.settings';
import { ConversationsQueryDto, CostsQueryDto, StatsQueryDto, UserExchangesQueryDto } from './dto/stats.dto';
import { EXCHANGE_STORE, ExchangeStore, StatsRange } from './log/exchange';

const DAY_MS = 86400000;

/**
 * Conversation analytics over the log store, limited to the caller's company below ADMIN. Every
 * endpoint answers 400 LOGGING_NOT_ENABLED while logging is off.
 */
@Injectable()
export class AiStatsService {
  constructor(
    private readonly settings: AiSettings,
    @Inject(EXCHANGE_STORE) private readonly store: ExchangeStore,
  ) {}

  private range(principal: Principal, q: StatsQueryDto, defaultDays: number): StatsRange {
    if (!this.settings.AI_LOGGING_ENABLED)
      throw AppError.badRequest('Logging not enabled', 'LOGGING_NOT_ENABLED');
    const end = q.endTime ? parseDateTime(q.endTime) : new Date();
    const start = q.startTime ? parseDateTime(q.startTime) : new Date(end.getTime() - defaultDays * DAY_MS);
    if (start > end)
      throw AppError.validation([{ field: 'startTime', message: 'startTime must not be after endTime' }]);
    return { start, end, companyId: companyScope(principal) };
  }

  private window(range: StatsRange) {
    return { startTime: range.start.toISOString(), endTime: range.end.toISOString() };
  }

  async stats(principal: Principal, q: StatsQueryDto) {
    const range = this.range(principal, q, 30);
    return { data: { ...this.window(range), ...(await this.store.stats(range)) } };
  }

  async costs(principal: Principal, q: CostsQueryDto) {
    const range = this.range(principal, q, 30);
    const costs = await this.store.costs(range, q.windowSize ?? '1d', q.userLimit ?? 10);
    return { data: { ...this.window(range), ...costs } };
  }

  async conversations(principal: Principal, q: ConversationsQueryDto) {
    const range = this.range(principal, q, 7);
    const windowSize = q.windowSize ?? '1h';
    const totals = await this.store.conversations(range, windowSize);
    return { data: { ...this.window(range), windowSize, ...totals } };
  }

  /** A user's exchanges, newest first: one's own, or anyone's (in reach) from MANAGER up. */
  async userExchanges(principal: Principal, username: string, q: UserExchangesQueryDto) {
    const range = this.range(principal, q, 30);
    const own = username === (principal.username ?? principal.email) || username === principal.email;
    if (!own && !hasRank(principal.role, 'MANAGER')) throw AppError.forbidden();
    const name = own ? (principal.username ?? principal.email) : username;
    return { data: await this.store.userExchanges(range, name, q.limit ?? 50) };
  }
}
