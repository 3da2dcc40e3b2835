import { Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { tenantContext } from '../../tenancy/tenant-context';

/** Where a cursor page starts: after the row with this sort value (its column text) and id. */
export interface CursorPosition {
  sort: string;
  order: 'ASC' | 'DESC';
  value: string | null;
  id: number;
}

const MAX_CURSOR = 1000;

/**
 * Cursors of lists and searches: the position after a page's last row, signed with a key derived
 * from the app secret and bound to the client, schema and collection, so a cursor cannot be forged
 * or moved to another table (400).
 */
@Injectable()
export class RecordCursors {
  private readonly key: Buffer;

  constructor(config: AppConfig) {
    this.key = createHmac('sha256', config.JWT_SECRET).update('cms-cursor/v1').digest();
  }

  make(collection: string, position: CursorPosition): string {
    const body = Buffer.from(
      JSON.stringify([position.sort, position.order, position.value, position.id]),
    ).toString('base64url');
    return `${body}.${this.sign(collection, body)}`;
  }

  /** The position a cursor names; 400 on `after` when it is malformed, forged or made for another sort. */
  read(collection: string, cursor: string, sort: string, order: 'ASC' | 'DESC'): CursorPosition {
    const invalid = (message = 'is not a cursor of this list') =>
      AppError.validation([{ field: 'after', message }]);
    const [body, mac, extra] = cursor.length <= MAX_CURSOR ? cursor.split('.') : [];
    if (!body || !mac || extra !== undefined) throw invalid();
    const expected = Buffer.from(this.sign(collection, body));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw invalid();
    }
    if (!Array.isArray(parsed) || parsed.length !== 4) throw invalid();
    const [s, o, value, id] = parsed as unknown[];
    if (s !== sort || o !== order) throw invalid('was made for another sort or order');
    if ((value !== null && typeof value !== 'string') || !Number.isSafeInteger(id)) throw invalid();
    return { sort, order, value: value, id: id as number };
  }

  private sign(collection: string, body: string): string {
    const { client, schema } = tenantContext.get();
    return createHmac('sha256', this.key)
      .update(`${client.identifier}\n${schema}\n${collection}\n${body}`)
      .digest('base64url');
  }
}
