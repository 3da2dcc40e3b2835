import ipaddr from 'ipaddr.js';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { lookup } from 'node:dns';
import { promisify } from 'node:util';

const lookupAll = promisify(lookup);
const BLOCKED_NAMES = /^(localhost|.*\.localhost|metadata|metadata\.google\.internal|instance-data)\.?$/i;

export class BlockedTargetError extends Error {
  readonly code = 'WEBHOOK_TARGET_BLOCKED';
}

/**
 * True when the address is anything but a public unicast address: loopback, private, link-local
 * (169.254.169.254 metadata included), carrier-grade NAT, unique-local, multicast, reserved...
 * IPv4-mapped IPv6 forms (::ffff:127.0.0.1) are judged as the IPv4 address they carry.
 */
export function isBlockedAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  return ipaddr.process(address).range() !== 'unicast';
}

/** Host of a URL without IPv6 brackets (WHATWG URL already normalised 2130706433, 0x7f000001, 127.1). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Checks a target URL: http(s) only, and unless private targets are allowed, a host that neither
 * is nor resolves to a blocked address. Answers the reason it is refused, or null.
 */
export async function refuseTarget(raw: string, allowPrivate: boolean): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute http(s) URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'url must use http or https';
  if (url.username || url.password) return 'url must not carry credentials; use customHeaders';
  if (allowPrivate) return null;
  const host = hostOf(url);
  if (BLOCKED_NAMES.test(host)) return 'url must not target a local or metadata host';
  if (isIP(host)) {
    return isBlockedAddress(host) ? 'url must not target a loopback, private or link-local address' : null;
  }
  try {
    const addresses = await lookupAll(host, { all: true });
    if (addresses.some((a) => isBlockedAddress(a.address))) {
      return 'url host resolves to a loopback, private or link-local address';
    }
  } catch {
    return 'url host cannot be resolved';
  }
  return null;
}

/**
 * A `lookup` for the delivery agents: resolves, refuses the connection when any address is
 * blocked, and hands the checked addresses to the socket, which connects to exactly those
 * (no second resolution, so DNS rebinding cannot swap the address in between).
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as unknown as { address: string; family: number }[];
      if (!list.length) return callback(new Error(`No address for ${hostname}`), '', 0);
      if (!allowPrivate && (BLOCKED_NAMES.test(hostname) || list.some((a) => isBlockedAddress(a.address)))) {
        return callback(new BlockedTargetError(`Target ${hostname} resolves to a blocked address`), '', 0);
      }
      if (options.all) return (callback as (e: null, a: typeof list) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}
