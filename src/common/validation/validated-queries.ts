import { LRUCache } from 'lru-cache';

/** Distinct query strings remembered per DTO class, and the longest one worth remembering. */
const QUERIES_PER_DTO = 500;
const MAX_QUERY_KEY_LENGTH = 1024;

type Validate = (query: Record<string, unknown>) => Promise<unknown>;
type DtoClass = abstract new (...args: never[]) => object;

/**
 * Validating a query string is a pure function of its parameters and its DTO, and clients send the
 * same few again and again (list pages, dashboards polling). The validated DTO of each recent one is
 * kept per DTO class and handed out as a copy, so class-transformer and class-validator run once
 * per distinct query. Failures are not kept: they are validated again and answer with their errors.
 * Only flat DTOs are kept (primitives, dates and arrays of primitives), which every query DTO is.
 */
export class ValidatedQueries {
  private readonly byDto = new WeakMap<DtoClass, LRUCache<string, object>>();

  async validate(query: Record<string, unknown>, dto: DtoClass | undefined, validate: Validate) {
    const key = dto ? JSON.stringify(query) : '';
    if (!dto || key.length > MAX_QUERY_KEY_LENGTH) return validate(query);
    const known = this.byDto.get(dto)?.get(key);
    if (known) return copyFlat(known);
    const result = await validate(query);
    if (result instanceof dto && isFlat(result)) this.cacheOf(dto).set(key, copyFlat(result));
    return result;
  }

  private cacheOf(dto: DtoClass) {
    let cache = this.byDto.get(dto);
    if (!cache) this.byDto.set(dto, (cache = new LRUCache({ max: QUERIES_PER_DTO })));
    return cache;
  }
}

const isPrimitive = (value: unknown) =>
  value === null || (typeof value !== 'object' && typeof value !== 'function');

function isFlat(dto: object): boolean {
  return Object.values(dto).every(
    (value) =>
      isPrimitive(value) || value instanceof Date || (Array.isArray(value) && value.every(isPrimitive)),
  );
}

function copyFlat<T extends object>(dto: T): T {
  const copy = Object.create(Object.getPrototypeOf(dto)) as Record<string, unknown>;
  for (const [field, value] of Object.entries(dto)) {
    copy[field] = Array.isArray(value) ? [...value] : value instanceof Date ? new Date(value) : value;
  }
  return copy as T;
}
