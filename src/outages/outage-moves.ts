import { MoveContext, MoveTable } from '../records/transitions';
import { OutageEvent } from './entities/outage-event.entity';

type Notes<K extends string> = MoveContext<Partial<Record<K, string>>>;

const decided = (_o: OutageEvent, ctx: Notes<'approvalNotes'>): Partial<OutageEvent> => ({
  approvedById: ctx.principal.userId,
  approvalDate: ctx.now,
  approvalNotes: ctx.input?.approvalNotes ?? null,
});

/**
 * How an outage moves. Status: ACTIVE → COMPLETED | CANCELLED. Approval (planned outages only,
 * MANAGER and above): PENDING → APPROVED | REJECTED.
 */
export const OUTAGE_MOVES: MoveTable<OutageEvent> = {
  complete: {
    from: ['ACTIVE'],
    to: 'COMPLETED',
    stamps: (_o, ctx: Notes<'completionNotes'>) => ({
      actualEnd: ctx.now,
      completionNotes: ctx.input?.completionNotes ?? null,
    }),
    event: 'outage.completed',
  },
  cancel: { from: ['ACTIVE'], to: 'CANCELLED', event: 'outage.cancelled' },
  approve: {
    field: 'approvalStatus',
    from: ['PENDING'],
    to: 'APPROVED',
    minRole: 'MANAGER',
    when: (o) => o.outageType === 'PLANNED',
    stamps: decided,
    event: 'outage.approved',
  },
  reject: {
    field: 'approvalStatus',
    from: ['PENDING'],
    to: 'REJECTED',
    minRole: 'MANAGER',
    when: (o) => o.outageType === 'PLANNED',
    stamps: decided,
    event: 'outage.rejected',
  },
};
