import { randomInt } from 'node:crypto';
import { sha256 } from '../../../common/crypto/token-hash';

/** Unambiguous upper-case letters and digits (no 0/O, 1/I/L). */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const RECOVERY_CODE_COUNT = 10;
export const RECOVERY_CODE_PATTERN = /^[A-Z0-9]{5}-[A-Z0-9]{5}$/;

const part = () => Array.from({ length: 5 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

/** Ten fresh codes of the form XXXXX-XXXXX. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => `${part()}-${part()}`);
}

/** Codes are compared case-insensitively and stored only as their SHA-256. */
export const hashRecoveryCode = (code: string): string => sha256(code.trim().toUpperCase());
