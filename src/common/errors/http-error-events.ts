import { EventEmitter } from 'node:events';

export interface HttpErrorEvent {
  status: number;
  code: string;
  message: string;
  method: string;
  path: string;
  ip?: string;
  userAgent?: string;
  requestId: string;
}

/**
 * In-process notification of every error answer, so the audit module can record them without the
 * exception filter knowing about it. Listeners must not throw.
 */
/** Event name: `http-error` with an HttpErrorEvent. */
export const httpErrorEvents = new EventEmitter();
httpErrorEvents.setMaxListeners(20);
