import { lookup as dnsLookup, LookupAddress, LookupOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';
import { AppError } from '../../common/errors/app-error';

/** Address ranges an outbound IdP call may not reach unless private targets are allowed. */
const BLOCKED_RANGES = new Set([
  'unspecified',
  'broadcast',
  'multicast',
  'linkLocal',
  'loopback',
  'private',
  'reserved',
  'carrierGradeNat',
  'uniqueLocal',
  'ipv4Mapped',
  'rfc6145',
  'rfc6052',
  '6to4',
  'teredo',
  'benchmarking',
  'amt',
  'as112',
  'as112v6',
  'orchid2',
  'droneRemoteIdProtocolEntityTags',
]);

export function isBlockedAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return BLOCKED_RANGES.has(parsed.range());
}

export const outboundRefused = (message: string) => new AppError(400, 'SSO_TARGET_NOT_ALLOWED', message);

/** Throws unless `raw` is an http(s) URL whose literal host (if an IP) may be reached. */
export function assertOutboundUrl(raw: string | URL, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = typeof raw === 'string' ? new URL(raw) : raw;
  } catch {
    throw outboundRefused(`Not a valid URL: ${String(raw).slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw outboundRefused('Only http(s) URLs may be called');
  }
  if (url.username || url.password) throw outboundRefused('URLs with credentials are not allowed');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(host) && isBlockedAddress(host)) {
    throw outboundRefused(`${url.hostname} is a private, loopback or link-local address`);
  }
  return url;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http.request that resolves the name and refuses it when any address is private,
 * so a DNS name cannot point an outbound call at the internal network.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses;
      const bad = !allowPrivate && list.find((a) => isBlockedAddress(a.address));
      if (bad || list.length === 0) {
        const refused: NodeJS.ErrnoException = new Error(
          `${hostname} resolves to a private, loopback or link-local address`,
        );
        refused.code = 'ESSOTARGET';
        return callback(refused, []);
      }
      if (options.all) return callback(null, list);
      return callback(null, list[0].address, list[0].family);
    });
  };
}
