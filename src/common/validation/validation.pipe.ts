import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { AppError, FieldError } from '../errors/app-error';
import { ValidatedQueries } from './validated-queries';

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

export class AppValidationPipe extends ValidationPipe {
  private readonly queries = new ValidatedQueries();

  override transform(value: unknown, metadata: ArgumentMetadata) {
    if (metadata.type === 'query' && value && typeof value === 'object') {
      const rest = { ...(value as Record<string, unknown>) };
      for (const key of TENANT_QUERY_PARAMS) delete rest[key];
      return this.queries.validate(rest, metadata.metatype, (query) => super.transform(query, metadata));
    }
    return super.transform(value, metadata);
  }
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
