import { Injectable } from '@nestjs/common';
import jwt, { JsonWebTokenError, TokenExpiredError } from 'jsonwebtoken';
import { createSecretKey, KeyObject } from 'node:crypto';
import { AppError } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import type { RoleType } from './roles';

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

/**
 * HS256 with a KeyObject: jsonwebtoken given a string secret rebuilds a key on every verify, which
 * costs about half a millisecond per request.
 */
@Injectable()
export class JwtService {
  private readonly key: KeyObject;

  constructor(private readonly config: AppConfig) {
    this.key = createSecretKey(Buffer.from(config.JWT_SECRET, 'utf8'));
  }

  sign(
    claims: Omit<AccessClaims, 'iat' | 'exp'>,
    expiresInSeconds = this.config.JWT_EXPIRES_IN_SECONDS,
  ): string {
    return jwt.sign(claims, this.key, { algorithm: 'HS256', expiresIn: expiresInSeconds });
  }

  verify(token: string): AccessClaims {
    try {
      return jwt.verify(token, this.key, { algorithms: ['HS256'] }) as AccessClaims;
    } catch (err) {
      if (err instanceof TokenExpiredError) throw AppError.unauthorized('Token expired', 'TOKEN_EXPIRED');
      if (err instanceof JsonWebTokenError) throw AppError.unauthorized('Invalid token', 'INVALID_TOKEN');
      throw err;
    }
  }
}
