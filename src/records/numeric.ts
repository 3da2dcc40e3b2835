import { ValueTransformer } from 'typeorm';

/** A `numeric` column read as a JSON number (pg hands numerics over as text). */
export const numericColumn: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};
