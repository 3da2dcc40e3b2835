import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  KeyObject,
  randomBytes,
  sign,
} from 'node:crypto';

/** A minimal DER encoder: just what an X.509 v3 self-signed certificate needs. */
const der = (tag: number, content: Buffer): Buffer => {
  const len = content.length;
  let header: Buffer;
  if (len < 0x80) header = Buffer.from([tag, len]);
  else {
    const bytes: number[] = [];
    for (let n = len; n > 0; n >>= 8) bytes.unshift(n & 0xff);
    header = Buffer.from([tag, 0x80 | bytes.length, ...bytes]);
  }
  return Buffer.concat([header, content]);
};
const seq = (...items: Buffer[]) => der(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => der(0x31, Buffer.concat(items));
const int = (value: Buffer) => der(0x02, value[0] & 0x80 ? Buffer.concat([Buffer.from([0]), value]) : value);
const oid = (dotted: string) => {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * a + b];
  for (const n of rest) {
    const part = [n & 0x7f];
    for (let v = n >> 7; v > 0; v >>= 7) part.unshift((v & 0x7f) | 0x80);
    bytes.push(...part);
  }
  return der(0x06, Buffer.from(bytes));
};
const utf8 = (s: string) => der(0x0c, Buffer.from(s, 'utf8'));
const time = (d: Date) => {
  const iso = d.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return d.getUTCFullYear() < 2050
    ? der(0x17, Buffer.from(`${iso.slice(2)}Z`))
    : der(0x18, Buffer.from(`${iso}Z`));
};
const name = (cn: string) => seq(set(seq(oid('2.5.4.3'), utf8(cn))));
const SHA256_RSA = seq(oid('1.2.840.113549.1.1.11'), der(0x05, Buffer.alloc(0)));

export interface KeyAndCertificate {
  privateKeyPem: string;
  certificatePem: string;
}

/** A self-signed RSA certificate for `commonName` (SAML SP keys in development, test IdPs). */
export function selfSignedCertificate(
  commonName: string,
  options: { privateKey?: KeyObject; days?: number; notBefore?: Date } = {},
): KeyAndCertificate {
  const privateKey = options.privateKey ?? generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const publicKey = createPublicKey(privateKey);
  const notBefore = options.notBefore ?? new Date(Date.now() - 60_000);
  const notAfter = new Date(notBefore.getTime() + (options.days ?? 3650) * 86_400_000);
  const serial = randomBytes(16);
  // Positive and minimal in DER: a leading zero byte would make OpenSSL refuse the certificate.
  serial[0] = 0x40 | (serial[0] & 0x3f);
  const tbs = seq(
    der(0xa0, int(Buffer.from([2]))),
    int(serial),
    SHA256_RSA,
    name(commonName),
    seq(time(notBefore), time(notAfter)),
    name(commonName),
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = sign('sha256', tbs, privateKey);
  const cert = seq(tbs, SHA256_RSA, der(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const b64 = cert
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n');
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    certificatePem: `-----BEGIN CERTIFICATE-----\n${b64}\n-----END CERTIFICATE-----\n`,
  };
}

export const loadPrivateKey = (pem: string) => createPrivateKey(pem);
