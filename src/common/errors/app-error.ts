import { HttpStatus } from '@nestjs/common';

export interface FieldError {
  field: string;
  message: string;
}

/** A domain error carrying its HTTP status and machine-readable code (envelope A). */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  static validation(details: FieldError[], message = 'Validation failed') {
    return new AppError(HttpStatus.BAD_REQUEST, 'VALIDATION_ERROR', message, details);
  }
  static badRequest(message: string, code = 'BAD_REQUEST') {
    return new AppError(HttpStatus.BAD_REQUEST, code, message);
  }
  static unauthorized(message = 'Authentication required', code = 'UNAUTHORIZED') {
    return new AppError(HttpStatus.UNAUTHORIZED, code, message);
  }
  static forbidden(message = 'Insufficient permissions', code = 'FORBIDDEN') {
    return new AppError(HttpStatus.FORBIDDEN, code, message);
  }
  static notFound(what = 'Record') {
    return new AppError(HttpStatus.NOT_FOUND, 'NOT_FOUND', `${what} not found`);
  }
  static conflict(message: string) {
    return new AppError(HttpStatus.CONFLICT, 'CONFLICT', message);
  }
  static clientNotFound() {
    return new AppError(HttpStatus.NOT_FOUND, 'CLIENT_NOT_FOUND', 'Client not found or inactive');
  }
}

/** Password endpoints answer in envelope B: `{ success: false, message }`. */
export class EnvelopeBError extends Error {
  constructor(
    message: string,
    readonly status = HttpStatus.BAD_REQUEST,
  ) {
    super(message);
  }
}

/** OCR endpoints keep `{ error: "<message>" }`. */
export class PlainMessageError extends Error {
  constructor(
    message: string,
    readonly status = HttpStatus.BAD_REQUEST,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}
