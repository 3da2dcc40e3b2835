import { createHmac, randomBytes } from 'node:crypto';

/** A new secret in the Standard Webhooks form: `whsec_` + base64 of 32 random bytes. */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** What the API shows of a secret after creation. */
export function previewSecret(secret: string): string {
  return `${secret.slice(0, 10)}...`;
}

export interface SignedHeaders {
  'X-SVC-Signature': string;
  'X-SVC-Timestamp': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * X-SVC-Signature: `sha256=` + hex HMAC-SHA256 of the raw body keyed with the whole secret string.
 * webhook-signature (Standard Webhooks): `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` keyed
 * with the base64-decoded part of the secret after `whsec_`.
 */
export function signDelivery(
  secret: string,
  messageId: string,
  body: string,
  now = Date.now(),
): SignedHeaders {
  const timestamp = String(Math.floor(now / 1000));
  const svc = createHmac('sha256', secret).update(body).digest('hex');
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const standard = createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64');
  return {
    'X-SVC-Signature': `sha256=${svc}`,
    'X-SVC-Timestamp': timestamp,
    'webhook-id': messageId,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${standard}`,
  };
}
