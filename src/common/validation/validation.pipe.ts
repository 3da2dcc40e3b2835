import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { AppError, FieldError } from '../errors/app-error';
import { ValidatedQueries } from './validated-queries';
import { unsafeNumbers, unstorableStrings } from './well-formed-strings';

function flatten(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({
      field,
      message: message.startsWith('property ') ? `${field} is not allowed` : message,
    }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/** Query parameters that choose the tenant on any route; the tenancy middleware has consumed them. */
const TENANT_QUERY_PARAMS = ['client', 'sandbox'];

/** What the request carries: the pipe also runs for custom parameter decorators, which it leaves alone. */
const REQUEST_VALUES = new Set<ArgumentMetadata['type']>(['body', 'query', 'param']);

/**
 * Before class-transformer, every string of the body, query and path (DTO or not) is checked for
 * what PostgreSQL cannot store (NUL, lone surrogates); numbers of a validated query must be safe.
 */
export class AppValidationPipe extends ValidationPipe {
  private readonly queries = new ValidatedQueries();

  override transform(value: unknown, metadata: ArgumentMetadata) {
    if (metadata.type === 'query' && value && typeof value === 'object') {
      const rest = { ...(value as Record<string, unknown>) };
      for (const key of TENANT_QUERY_PARAMS) delete rest[key];
      // Runs only for a query not validated before: a remembered one passed these checks already.
      return this.queries.validate(rest, metadata.metatype, async (query) => {
        assertStorable(query, metadata);
        const dto: unknown = await super.transform(query, metadata);
        const unsafe = dto && typeof dto === 'object' ? unsafeNumbers(dto) : [];
        if (unsafe.length) throw AppError.validation(unsafe);
        return dto;
      });
    }
    if (REQUEST_VALUES.has(metadata.type)) assertStorable(value, metadata);
    return super.transform(value, metadata);
  }

  /**
   * Path parameters reach their own pipes (IdParam) as sent: converted here first, `1e3` or `0x10`
   * would arrive there as a valid-looking number.
   */
  protected override transformPrimitive(value: unknown, metadata: ArgumentMetadata) {
    return metadata.type === 'param' ? value : super.transformPrimitive(value, metadata);
  }
}

function assertStorable(value: unknown, metadata: ArgumentMetadata) {
  const field =
    typeof value === 'object' && value !== null ? (metadata.data ?? '') : (metadata.data ?? metadata.type);
  const errors = unstorableStrings(value, field);
  if (errors.length) throw AppError.validation(errors);
}

/** Whitelists DTO fields, rejects unknown ones and reports every failure as `{ field, message }`. */
export function createValidationPipe() {
  return new AppValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => AppError.validation(flatten(errors)),
  });
}
