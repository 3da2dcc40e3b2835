import { MoveContext, MoveTable } from '../../records/transitions';
import { ComplianceObligation, Frequency } from './entities/compliance-obligation.entity';

const MONTHS: Partial<Record<Frequency, number>> = { MONTHLY: 1, QUARTERLY: 3, SEMI_ANNUAL: 6, ANNUAL: 12 };
const DAYS: Partial<Record<Frequency, number>> = { DAILY: 1, WEEKLY: 7 };

/** `n` periods of `frequency` after `from` (calendar months in UTC, clamped to the month's end). */
export function addPeriods(from: Date, frequency: Frequency, n = 1): Date {
  const next = new Date(from);
  const days = DAYS[frequency];
  if (days) {
    next.setUTCDate(next.getUTCDate() + days * n);
    return next;
  }
  const months = (MONTHS[frequency] ?? 0) * n;
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}

/** The next due date of a recurring obligation: moved forward by its frequency until it is after `now`. */
export function nextDueAfter(due: Date | null, frequency: Frequency, now: Date): Date {
  const from = due ?? now;
  let n = 1;
  while (addPeriods(from, frequency, n).getTime() <= now.getTime()) n++;
  return addPeriods(from, frequency, n);
}

const completion = (o: ComplianceObligation, { now }: MoveContext) =>
  o.frequency === 'ONE_TIME'
    ? { lastCompletedDate: now }
    : { lastCompletedDate: now, nextDueDate: nextDueAfter(o.nextDueDate, o.frequency, now) };

/**
 * Completing an obligation (ACTIVE or OVERDUE): a ONE_TIME one becomes COMPLETED, a recurring one
 * stays (or becomes again) ACTIVE with its next due date in the future.
 */
export const OBLIGATION_MOVES: MoveTable<ComplianceObligation> = {
  complete: {
    from: ['ACTIVE', 'OVERDUE'],
    to: (o) => (o.frequency === 'ONE_TIME' ? 'COMPLETED' : 'ACTIVE'),
    stamps: completion,
    event: 'obligation.completed',
  },
};
