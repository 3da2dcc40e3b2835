import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';

/**
 * Binds an account-linking SSO flow to the browser that started it: `/auth/sso/link` sets a random
 * HttpOnly cookie and the state carries its hash; the callback completes a link only when the same
 * browser presents the cookie, so a victim cannot be made to finish an attacker's link.
 */
export const LINK_COOKIE = 'svc_sso_link';
const COOKIE_PATH = '/auth/sso';

const hash = (value: string) => createHash('sha256').update(value).digest('base64url');

/** A new binding: the cookie value and the hash the state carries. */
export function newLinkBinding(): { cookie: string; hash: string } {
  const cookie = randomBytes(32).toString('base64url');
  return { cookie, hash: hash(cookie) };
}

export function setLinkCookie(res: Response, value: string, maxAgeSeconds: number, secure: boolean) {
  // A SAML ACS is a cross-site POST: the cookie must be SameSite=None (which needs Secure) to come back.
  res.cookie(LINK_COOKIE, value, {
    httpOnly: true,
    path: COOKIE_PATH,
    maxAge: maxAgeSeconds * 1000,
    sameSite: secure ? 'none' : 'lax',
    secure,
  });
}

/** The binding cookie a request presents, if any. */
export function presentedLinkCookie(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === LINK_COOKIE) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** True when `presented` is the cookie whose hash the state carries. */
export function bindingMatches(expectedHash: string | undefined, presented: string | undefined): boolean {
  if (!expectedHash || !presented) return false;
  const a = Buffer.from(hash(presented));
  const b = Buffer.from(expectedHash);
  return a.length === b.length && timingSafeEqual(a, b);
}
