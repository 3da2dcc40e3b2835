import { Principal } from '../../access/principal';
import { applyMove } from '../../records/transitions';
import { ComplianceObligation } from './entities/compliance-obligation.entity';
import { addPeriods, nextDueAfter, OBLIGATION_MOVES } from './obligation-moves';

const at = (iso: string) => new Date(iso);

describe('obligation periods', () => {
  it('adds days, weeks and calendar months, keeping the day of month where it exists', () => {
    expect(addPeriods(at('2026-01-31T09:00:00Z'), 'DAILY')).toEqual(at('2026-02-01T09:00:00Z'));
    expect(addPeriods(at('2026-01-31T09:00:00Z'), 'WEEKLY')).toEqual(at('2026-02-07T09:00:00Z'));
    expect(addPeriods(at('2026-01-31T09:00:00Z'), 'MONTHLY')).toEqual(at('2026-02-28T09:00:00Z'));
    expect(addPeriods(at('2026-01-31T09:00:00Z'), 'MONTHLY', 2)).toEqual(at('2026-03-31T09:00:00Z'));
    expect(addPeriods(at('2026-11-30T00:00:00Z'), 'QUARTERLY')).toEqual(at('2027-02-28T00:00:00Z'));
    expect(addPeriods(at('2026-08-31T00:00:00Z'), 'SEMI_ANNUAL')).toEqual(at('2027-02-28T00:00:00Z'));
    expect(addPeriods(at('2028-02-29T00:00:00Z'), 'ANNUAL')).toEqual(at('2029-02-28T00:00:00Z'));
  });

  it('moves a due date forward by whole periods until it is after now', () => {
    const now = at('2026-11-24T12:00:00Z');
    expect(nextDueAfter(at('2026-01-31T09:00:00Z'), 'MONTHLY', now)).toEqual(at('2026-11-30T09:00:00Z'));
    expect(nextDueAfter(at('2026-12-15T00:00:00Z'), 'MONTHLY', now)).toEqual(at('2027-01-15T00:00:00Z'));
    expect(nextDueAfter(null, 'WEEKLY', now)).toEqual(at('2026-12-01T12:00:00Z'));
  });

  it('completes a ONE_TIME obligation and keeps a recurring one ACTIVE', () => {
    const ctx = {
      principal: { userId: 1, role: 'OPERATOR' } as Principal,
      now: at('2026-11-24T12:00:00Z'),
      input: {},
    };
    const base = { id: 1, companyId: 1, status: 'OVERDUE', nextDueDate: at('2026-11-01T00:00:00Z') };
    const once = applyMove(
      OBLIGATION_MOVES.complete,
      'complete',
      { ...base, frequency: 'ONE_TIME' } as ComplianceObligation,
      ctx,
    );
    expect(once).toMatchObject({
      status: 'COMPLETED',
      lastCompletedDate: ctx.now,
      nextDueDate: base.nextDueDate,
    });
    const monthly = applyMove(
      OBLIGATION_MOVES.complete,
      'complete',
      { ...base, frequency: 'MONTHLY' } as ComplianceObligation,
      ctx,
    );
    expect(monthly).toMatchObject({ status: 'ACTIVE', nextDueDate: at('2026-12-01T00:00:00Z') });
  });
});
