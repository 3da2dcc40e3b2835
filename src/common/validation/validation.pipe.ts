import { ValidationError, ValidationPipe } from '@nestjs/common';
import { AppError, FieldError } from '../errors/app-error';

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

/** Whitelists DTO fields, rejects unknown ones and reports every failure as `{ field, message }`. */
export function createValidationPipe() {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => AppError.validation(flatten(errors)),
  });
}
