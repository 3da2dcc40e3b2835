import speakeasy from 'speakeasy';

export const TOTP_STEP_SECONDS = 30;

/** The time step a 6-digit code belongs to when it matches within `window` steps of now, else null. */
export function matchTotpStep(secretBase32: string, code: string, window: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const result = speakeasy.totp.verifyDelta({
    secret: secretBase32,
    encoding: 'base32',
    token: code,
    window,
    step: TOTP_STEP_SECONDS,
  });
  if (!result) return null;
  return Math.floor(Date.now() / 1000 / TOTP_STEP_SECONDS) + result.delta;
}

export function newTotpSecret(): string {
  return speakeasy.generateSecret({ length: 20 }).base32;
}

export function otpauthUri(secretBase32: string, account: string, issuer: string): string {
  return speakeasy.otpauthURL({
    secret: secretBase32,
    encoding: 'base32',
    label: `${issuer}:${account}`,
    issuer,
  });
}
