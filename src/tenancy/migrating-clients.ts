import { Injectable } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';

/** Seconds a caller is told to wait while its client's database is being migrated. */
const RETRY_AFTER_SECONDS = 5;

/**
 * The clients whose migrations are pending or running in this process. A request to one of them is
 * refused before it reaches the database (503 CLIENT_MIGRATING), from memory: no query on the path.
 */
@Injectable()
export class MigratingClients {
  private readonly ids = new Set<number>();

  add(clientId: number): void {
    this.ids.add(clientId);
  }

  delete(clientId: number): void {
    this.ids.delete(clientId);
  }

  has(clientId: number): boolean {
    return this.ids.has(clientId);
  }

  get size(): number {
    return this.ids.size;
  }

  static refusal(): AppError {
    return new AppError(
      503,
      'CLIENT_MIGRATING',
      "The client's database is being migrated; try again shortly",
      undefined,
      { 'Retry-After': String(RETRY_AFTER_SECONDS) },
    );
  }
}

/** Seconds a caller is told to wait while its client's database is restored from a backup. */
const RESTORING_RETRY_AFTER_SECONDS = 10;

/** Any request to a client whose database is being restored in place (reads too: they would see the old data). */
export function clientRestoringRefusal(): AppError {
  return new AppError(
    503,
    'CLIENT_RESTORING',
    "The client's database is being restored from a backup; try again shortly",
    undefined,
    { 'Retry-After': String(RESTORING_RETRY_AFTER_SECONDS) },
  );
}

/** Seconds a writer is told to wait while its client's database is being moved to another server. */
const MOVING_RETRY_AFTER_SECONDS = 1;

/** A write to a client whose database is being copied to another server (reads go on). */
export function clientMovingRefusal(): AppError {
  return new AppError(
    503,
    'CLIENT_MOVING',
    "The client's database is being moved; writes resume shortly",
    undefined,
    { 'Retry-After': String(MOVING_RETRY_AFTER_SECONDS) },
  );
}
