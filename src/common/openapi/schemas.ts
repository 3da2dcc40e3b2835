import type { ApiPropertyOptions } from '@nestjs/swagger';

/** Any JSON value, null included (an audit entry's old and new values). */
export const ANY_JSON_VALUE: ApiPropertyOptions = {
  oneOf: [
    { type: 'string', nullable: true },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'object', additionalProperties: true },
    { type: 'array', items: {} },
  ],
};

/** Schemas (by class name) whose objects carry further properties beside the declared ones. */
export const OPEN_SCHEMAS = new Set<string>();

/** Declares `additionalProperties: true` on the class's schema (the document builder adds it). */
export const OpenSchema = (): ClassDecorator => (target) => {
  OPEN_SCHEMAS.add(target.name);
};
