import { Injectable } from '@nestjs/common';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppConfig } from '../../config/app-config';
import { RedisService } from '../../redis/redis.service';
import { SsoSettings } from '../sso.settings';
import { SsoErrors } from '../sso-errors';

/** What the signed state carries: the client, the provider and what the login is for. */
export interface StateClaims {
  /** Random id, the key of the server-side record. */
  jti: string;
  /** Client identifier (`master` for the master database). */
  client: string;
  providerId: number;
  purpose: 'login' | 'link' | 'logout';
  /** The user linking an account (purpose link). */
  userId?: number;
  redirectUri?: string;
  /** Hash of the link-binding cookie of the browser that started a link (purpose link). */
  bind?: string;
  /** Unix seconds. */
  exp: number;
}

/** The secrets kept server-side for one state (never sent to the browser except the nonce in the URL). */
export interface StateRecord {
  nonce?: string;
  codeVerifier?: string;
  samlRequestId?: string;
}

const b64 = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/**
 * SSO state: an HMAC-signed token (tamper-proof, carries the client so the callback needs no client
 * header), valid SSO_STATE_TTL_SECONDS, single use through a Redis record consumed with GETDEL.
 */
@Injectable()
export class SsoStateService {
  private readonly key: Buffer;

  constructor(
    config: AppConfig,
    private readonly settings: SsoSettings,
    private readonly redis: RedisService,
  ) {
    this.key = createHmac('sha256', config.JWT_SECRET).update('sso-state/v1').digest();
  }

  async create(claims: Omit<StateClaims, 'jti' | 'exp'>, record: StateRecord): Promise<string> {
    const ttl = this.settings.SSO_STATE_TTL_SECONDS;
    const full: StateClaims = {
      ...claims,
      jti: randomBytes(18).toString('base64url'),
      exp: Math.floor(Date.now() / 1000) + ttl,
    };
    await this.redis.client.set(this.recordKey(full.jti), JSON.stringify(record), 'EX', ttl, 'NX');
    const body = b64(JSON.stringify(full));
    return `${body}.${this.sign(body)}`;
  }

  /** Checks signature and expiry; throws 400 INVALID_STATE. Does not consume. */
  verify(state: unknown): StateClaims {
    if (typeof state !== 'string' || state.length > 4096) throw SsoErrors.invalidState('Missing SSO state');
    const [body, mac, extra] = state.split('.');
    if (!body || !mac || extra !== undefined) throw SsoErrors.invalidState();
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw SsoErrors.invalidState('SSO state was altered');
    }
    let claims: StateClaims;
    try {
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as StateClaims;
    } catch {
      throw SsoErrors.invalidState();
    }
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) {
      throw SsoErrors.invalidState('SSO state expired');
    }
    return claims;
  }

  /** Single use: the first caller gets the record, every later one INVALID_STATE. */
  async consume(claims: StateClaims): Promise<StateRecord> {
    const raw = await this.redis.client.getdel(this.recordKey(claims.jti));
    if (!raw) throw SsoErrors.invalidState('SSO state already used or expired');
    return JSON.parse(raw) as StateRecord;
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }

  private recordKey(jti: string) {
    return this.redis.key('sso', 'state', jti);
  }
}
