import { Injectable } from '@nestjs/common';
import jwt, { JsonWebTokenError, TokenExpiredError } from 'jsonwebtoken';
import { LRUCache } from 'lru-cache';
import { createSecretKey, KeyObject } from 'node:crypto';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import type { RoleType } from '../../access/roles';

export interface AccessClaims {
  sub: string;
  email: string;
  role: RoleType;
  companyId: number | null;
  /** Client identifier that issued the token (`master` for the master database). */
  cid: string;
  /** User's token version when issued; a password change bumps it. */
  tv: number;
  /** Absent on access tokens; `2fa` on the short-lived token of a pending two-factor login. */
  typ?: string;
  /** Unique id of a two-factor tempToken (single use). */
  jti?: string;
  iat: number;
  exp: number;
}

/** Verified tokens remembered per process; a client sends the same token until it expires. */
const VERIFIED_TOKENS_MAX = 10_000;

/**
 * HS256 with a KeyObject: jsonwebtoken given a string secret rebuilds a key on every verify, which
 * costs about half a millisecond per request.
 *
 * A token whose signature has been checked is remembered until its `exp`, so that a client's next
 * requests skip the decoding and the HMAC. Only valid tokens are kept, and an entry never outlives the
 * token. Revocation does not depend on this: the token version is checked on every request.
 */
@Injectable()
export class JwtService {
  private readonly key: KeyObject;
  private readonly verified = new LRUCache<string, Readonly<AccessClaims>>({ max: VERIFIED_TOKENS_MAX });

  constructor(private readonly config: AppConfig) {
    this.key = createSecretKey(Buffer.from(config.JWT_SECRET, 'utf8'));
  }

  sign(
    claims: Omit<AccessClaims, 'iat' | 'exp'>,
    expiresInSeconds = this.config.JWT_EXPIRES_IN_SECONDS,
  ): string {
    return jwt.sign(claims, this.key, { algorithm: 'HS256', expiresIn: expiresInSeconds });
  }

  verify(token: string): Readonly<AccessClaims> {
    const known = this.verified.get(token);
    if (known) return known;
    try {
      const claims = Object.freeze(jwt.verify(token, this.key, { algorithms: ['HS256'] }) as AccessClaims);
      const lifetimeMs = claims.exp * 1000 - Date.now();
      if (lifetimeMs > 0) this.verified.set(token, claims, { ttl: lifetimeMs });
      return claims;
    } catch (err) {
      if (err instanceof TokenExpiredError) throw AppError.unauthorized('Token expired', 'TOKEN_EXPIRED');
      if (err instanceof JsonWebTokenError) throw AppError.unauthorized('Invalid token', 'INVALID_TOKEN');
      throw err;
    }
  }
}
