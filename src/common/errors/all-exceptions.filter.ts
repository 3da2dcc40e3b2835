import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { QueryFailedError } from 'typeorm';
import { AppError, EnvelopeBError, PlainMessageError } from './app-error';
import { httpErrorEvents } from './http-error-events';
import { JSON_TOO_DEEP } from '../http/json-depth';
import { constraintViolation } from '../../database/constraint-violation';
import { unavailableDependency, writeRefusedByMove } from './unavailable-dependency';

const CODE_BY_STATUS: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_ENTITY',
  423: 'ACCOUNT_LOCKED',
  429: 'RATE_LIMITED',
};

/** Seconds a caller is told to wait when a dependency is away; a restart or failover takes a few. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

const UNAVAILABLE_MESSAGES = {
  database: 'The database is unavailable; try again shortly',
  redis: 'A backing service is unavailable; try again shortly',
};

/** A lost database or Redis connection is the caller's 503 to retry, not a fault of ours (500). */
function serviceUnavailable(exception: unknown): AppError | null {
  if (exception instanceof AppError || exception instanceof HttpException) return null;
  if (writeRefusedByMove(exception)) {
    // A replica that had not yet heard of the move sent a write; the move's guard refused it.
    return new AppError(
      503,
      'CLIENT_MOVING',
      "The client's database is being moved; writes resume shortly",
      undefined,
      {
        'Retry-After': '1',
      },
    );
  }
  const dependency = unavailableDependency(exception);
  if (!dependency) return null;
  return new AppError(503, 'SERVICE_UNAVAILABLE', UNAVAILABLE_MESSAGES[dependency], undefined, {
    'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
  });
}

interface Answer {
  status: number;
  code: string;
  message: string;
  body: unknown;
  headers?: Record<string, string>;
}

function requestIdKept(request: Request): string | undefined {
  const { id } = request as Request & { id?: unknown };
  return typeof id === 'string' ? id : undefined;
}

/** Turns every error into the envelopes of docs/api-rules.md; unknown errors become a logged 500. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(thrown: unknown, host: ArgumentsHost) {
    const exception = serviceUnavailable(thrown) ?? thrown;
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    // requestIdOf keeps the id it chose on the request (the tenant context names it alike); before any
    // middleware chose one, the caller's header.
    const requestId = requestIdKept(request) ?? String(request.headers['x-request-id'] ?? '');
    const answer = this.toAnswer(exception, requestId);
    if (answer.status >= 500) {
      // The path only: a query string may carry codes or tokens. A 5xx we chose to answer (BUSY,
      // a service unreachable) is one warning line; only a fault of ours is an error with its stack.
      const line = `${request.method} ${request.path} [${requestId}] ${answer.status} ${answer.code}`;
      if (exception instanceof AppError || exception instanceof HttpException) this.logger.warn(line);
      else this.logger.error(line, (exception as Error)?.stack);
    }
    httpErrorEvents.emit('http-error', {
      status: answer.status,
      code: answer.code,
      message: answer.message,
      method: request.method,
      path: request.originalUrl,
      ip: request.ip,
      userAgent: request.headers['user-agent'],
      requestId,
    });
    if (response.headersSent) return;
    for (const [name, value] of Object.entries(answer.headers ?? {})) response.setHeader(name, value);
    response.status(answer.status).json(answer.body);
  }

  private toAnswer(exception: unknown, requestId: string): Answer {
    if (exception instanceof AppError) {
      return this.envelopeA(
        exception.status,
        exception.code,
        exception.message,
        exception.details,
        exception.headers,
      );
    }
    if (exception instanceof EnvelopeBError) {
      return {
        status: exception.status,
        code: 'BAD_REQUEST',
        message: exception.message,
        body: { success: false, message: exception.message },
      };
    }
    if (exception instanceof PlainMessageError) {
      return {
        status: exception.status,
        code: 'BAD_REQUEST',
        message: exception.message,
        body: { error: exception.message },
        headers: exception.headers,
      };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const payload = exception.getResponse();
      const message =
        typeof payload === 'string'
          ? payload
          : Array.isArray((payload as { message?: unknown }).message)
            ? (payload as { message: string[] }).message.join('; ')
            : typeof (payload as { message?: unknown }).message === 'string'
              ? (payload as { message: string }).message
              : exception.message;
      return this.envelopeA(status, CODE_BY_STATUS[status] ?? 'ERROR', message);
    }
    const bodyParserError = exception as { type?: string; status?: number; message?: string };
    if (bodyParserError?.type === 'entity.parse.failed') {
      return this.envelopeA(400, 'BAD_REQUEST', 'Malformed JSON body');
    }
    if (bodyParserError?.type === JSON_TOO_DEEP) {
      return this.envelopeA(400, 'VALIDATION_ERROR', 'Validation failed', [
        { field: 'body', message: bodyParserError.message ?? 'JSON body nests too deeply' },
      ]);
    }
    if (bodyParserError?.type === 'entity.too.large') {
      return this.envelopeA(413, 'PAYLOAD_TOO_LARGE', 'Request body too large');
    }
    if (exception instanceof QueryFailedError) {
      const violated = constraintViolation(exception)?.kind;
      if (violated === 'unique')
        return this.envelopeA(409, 'CONFLICT', 'A record with this unique value already exists');
      if (violated === 'foreignKey')
        return this.envelopeA(409, 'CONFLICT', 'The record is referenced by or references a missing record');
      const code = (exception as QueryFailedError & { driverError?: { code?: string } }).driverError?.code;
      if (code === '22P02' || code === '22003') return this.envelopeA(400, 'BAD_REQUEST', 'Invalid value');
    }
    return this.envelopeA(HttpStatus.INTERNAL_SERVER_ERROR, 'INTERNAL_ERROR', 'Internal server error', {
      requestId,
    });
  }

  private envelopeA(
    status: number,
    code: string,
    message: string,
    details?: unknown,
    headers?: Record<string, string>,
  ): Answer {
    const error: Record<string, unknown> = { status, code, message };
    if (details !== undefined) error.details = details;
    return { status, code, message, body: { error }, headers };
  }
}
