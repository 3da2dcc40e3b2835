import { HttpStatus } from '@nestjs/common';
import { Principal } from '../access/principal';
import { hasRank, RoleType } from '../access/roles';
import { AppError } from '../common/errors/app-error';

/** What a move may read besides the record: who moves it, when, and the body of the request. */
export interface MoveContext<I = unknown> {
  principal: Principal;
  now: Date;
  input: I;
}

/**
 * One named move of a record (complete, approve, submit, ...): it is allowed from the listed
 * states of its state field, for `minRole` and above, when `when` holds; it sets the field to `to`
 * and the fields `stamps` answers (approvedById = caller, approvalDate = now, ...).
 */
export interface Move<R, I = unknown> {
  /** The state field the move reads and writes; default `status`. */
  field?: keyof R & string;
  from: readonly string[];
  /** The state the move leads to, or how it follows from the record (a recurring obligation stays ACTIVE). */
  to: string | ((record: R, ctx: MoveContext<I>) => string);
  minRole?: RoleType;
  /** A further condition on the record (e.g. only PLANNED outages are approved). */
  when?(record: R): boolean;
  stamps?(record: R, ctx: MoveContext<I>): Partial<R>;
  /** Event code the move publishes (`outage.approved`). */
  event: string;
}

/** The moves of a resource by name (each move may type its own input). */
export type MoveTable<R> = Record<string, Move<R, unknown>>;

export const invalidTransition = (message: string) =>
  new AppError(HttpStatus.CONFLICT, 'INVALID_TRANSITION', message);

/**
 * The record after the move, or 403 when the caller's role is below the move's, 409
 * `INVALID_TRANSITION` when its state (or condition) does not allow it. Pure: saving, audit and
 * event are `RecordChanges.move`'s.
 */
export function applyMove<R extends object, I>(
  move: Move<R, I>,
  name: string,
  record: R,
  ctx: MoveContext<I>,
): R {
  if (move.minRole && !hasRank(ctx.principal.role, move.minRole)) {
    throw AppError.forbidden(`Only ${move.minRole} and above may ${name}`);
  }
  const field = move.field ?? 'status';
  const state = (record as Record<string, unknown>)[field];
  if (!move.from.includes(state as string) || (move.when && !move.when(record))) {
    throw invalidTransition(`Cannot ${name} while ${field} is ${String(state)}`);
  }
  const to = typeof move.to === 'function' ? move.to(record, ctx) : move.to;
  return { ...record, ...move.stamps?.(record, ctx), [field]: to };
}

/** PUT (and other edits) only in the listed states of the state field; 409 `INVALID_TRANSITION` otherwise. */
export function ensureEditable<R extends object>(record: R, states: readonly string[], field = 'status') {
  const state = (record as Record<string, unknown>)[field];
  if (!states.includes(state as string)) {
    throw invalidTransition(`Cannot change a record while ${field} is ${String(state)}`);
  }
}
