import { Principal } from '../access/principal';
import { RoleType } from '../access/roles';
import { AppError } from '../common/errors/app-error';
import { applyMove, ensureEditable, MoveContext, MoveTable } from './transitions';

interface Outage {
  id: number;
  companyId: number;
  status: 'ACTIVE' | 'COMPLETED' | 'CANCELLED';
  approvalStatus: 'PENDING' | 'APPROVED' | 'REJECTED';
  outageType: 'PLANNED' | 'FORCED';
  approvedById: number | null;
  approvalDate: Date | null;
  approvalNotes: string | null;
}

const MOVES: MoveTable<Outage> = {
  complete: { from: ['ACTIVE'], to: 'COMPLETED', event: 'outage.completed' },
  approve: {
    field: 'approvalStatus',
    from: ['PENDING'],
    to: 'APPROVED',
    minRole: 'MANAGER',
    when: (o) => o.outageType === 'PLANNED',
    stamps: (_o, { principal, now }) => ({ approvedById: principal.userId, approvalDate: now }),
    event: 'outage.approved',
  },
  reject: {
    field: 'approvalStatus',
    from: ['PENDING'],
    to: 'REJECTED',
    minRole: 'MANAGER',
    stamps: (_o, ctx: MoveContext<{ approvalNotes: string }>) => ({ approvalNotes: ctx.input.approvalNotes }),
    event: 'outage.rejected',
  },
};

const outage = (o: Partial<Outage> = {}): Outage => ({
  id: 1,
  companyId: 1,
  status: 'ACTIVE',
  approvalStatus: 'PENDING',
  outageType: 'PLANNED',
  approvedById: null,
  approvalDate: null,
  approvalNotes: null,
  ...o,
});
const caller = (role: RoleType) => ({ userId: 7, role, companyId: 1 }) as Principal;
const now = new Date('2026-11-24T08:00:00Z');

function failure(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected the move to fail');
}

describe('applyMove', () => {
  it('moves the state field and sets the stamps, leaving the record as it was', () => {
    const before = outage();
    const after = applyMove(MOVES.approve, 'approve', before, {
      principal: caller('MANAGER'),
      now,
      input: {},
    });
    expect(after).toEqual({ ...before, approvalStatus: 'APPROVED', approvedById: 7, approvalDate: now });
    expect(before.approvalStatus).toBe('PENDING');
  });

  it('reads the status field by default and the body through input', () => {
    expect(
      applyMove(MOVES.complete, 'complete', outage(), { principal: caller('OPERATOR'), now, input: {} }),
    ).toMatchObject({ status: 'COMPLETED' });
    const input = { approvalNotes: 'Grid constraint' };
    expect(
      applyMove(MOVES.reject, 'reject', outage(), { principal: caller('ADMIN'), now, input }),
    ).toMatchObject({ approvalStatus: 'REJECTED', approvalNotes: 'Grid constraint' });
  });

  it('answers 409 INVALID_TRANSITION from a state the move does not leave', () => {
    const error = failure(() =>
      applyMove(MOVES.complete, 'complete', outage({ status: 'CANCELLED' }), {
        principal: caller('ADMIN'),
        now,
        input: {},
      }),
    );
    expect(error).toMatchObject({ status: 409, code: 'INVALID_TRANSITION' });
    expect(error.message).toBe('Cannot complete while status is CANCELLED');
  });

  it('answers 409 when the further condition does not hold', () => {
    const forced = outage({ outageType: 'FORCED' });
    const error = failure(() =>
      applyMove(MOVES.approve, 'approve', forced, { principal: caller('ADMIN'), now, input: {} }),
    );
    expect(error).toMatchObject({ status: 409, code: 'INVALID_TRANSITION' });
  });

  it('answers 403 below the move role, before looking at the state', () => {
    const done = outage({ approvalStatus: 'APPROVED' });
    const error = failure(() =>
      applyMove(MOVES.approve, 'approve', done, { principal: caller('OPERATOR'), now, input: {} }),
    );
    expect(error).toMatchObject({ status: 403, code: 'FORBIDDEN' });
  });
});

describe('ensureEditable', () => {
  it('lets an edit through in the listed states and answers 409 otherwise', () => {
    expect(() => ensureEditable(outage(), ['ACTIVE'])).not.toThrow();
    expect(failure(() => ensureEditable(outage({ status: 'COMPLETED' }), ['ACTIVE']))).toMatchObject({
      status: 409,
      code: 'INVALID_TRANSITION',
    });
  });
});
