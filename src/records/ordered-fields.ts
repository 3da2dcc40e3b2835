import { AppError } from '../common/errors/app-error';

/** Two fields whose `high` may not be below `low`; the 400 names `field` with `message`. */
export interface OrderedPair {
  low: string;
  high: string;
  field: string;
  message: string;
}

const comparable = (v: unknown) => Number(v instanceof Date ? v.getTime() : v);

/**
 * 400 VALIDATION_ERROR when a pair is out of order (plannedEnd before plannedStart, lostCapacityMw
 * above capacityMw). Read from the record as it will be saved, so a partial `PUT` is checked
 * against the stored values too; an empty side checks nothing.
 */
export function ensureOrdered(record: object, pairs: OrderedPair[]) {
  const values = record as Record<string, unknown>;
  const problems = pairs
    .filter(({ low, high }) => {
      const [a, b] = [values[low], values[high]];
      if (a === null || a === undefined || b === null || b === undefined) return false;
      return comparable(a) > comparable(b);
    })
    .map(({ field, message }) => ({ field, message }));
  if (problems.length) throw AppError.validation(problems);
}

/** `end` may not be before `start`; the 400 names `end`. */
export const endAfterStart = (start: string, end: string): OrderedPair => ({
  low: start,
  high: end,
  field: end,
  message: `${end} must not be before ${start}`,
});
