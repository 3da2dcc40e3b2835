import ipaddr from 'ipaddr.js';
import { lookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { promisify } from 'node:util';

const lookupAll = promisify(lookup);

/** Names that point at the machine itself or at cloud metadata services, whatever DNS answers. */
const BLOCKED_NAMES = /^(localhost|.*\.localhost|metadata|metadata\.google\.internal|instance-data)\.?$/i;

/** Message of every refusal, worded for both callers (webhooks, SSO). */
const NOT_ALLOWED = 'is not allowed: a private, loopback or link-local address, or another non-public one';

/** A connection refused by the address guard (code EBLOCKEDTARGET). */
export class BlockedTargetError extends Error {
  readonly code = 'EBLOCKEDTARGET';
}

export const isBlockedTarget = (err: unknown): err is BlockedTargetError =>
  (err as { code?: string } | null)?.code === 'EBLOCKEDTARGET';

/** The IPv4 addresses an IPv6 transition form carries (NAT64, 6to4, Teredo server and client). */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4[] {
  const b = v6.toByteArray();
  const v4 = (i: number) => new ipaddr.IPv4(b.slice(i, i + 4));
  const range = v6.range();
  if (range === 'rfc6052') return [v4(12)];
  if (range === '6to4') return [v4(2)];
  if (range === 'teredo') return [v4(4), new ipaddr.IPv4(b.slice(12, 16).map((x) => x ^ 0xff))];
  return [];
}

/**
 * True unless the address is public unicast (ipaddr.js range `unicast`): loopback, private,
 * link-local (metadata 169.254.169.254), carrier-grade NAT, unique-local, multicast, reserved,
 * unspecified... are blocked. IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged as the IPv4 it carries;
 * the deprecated IPv4-compatible form (::/96, which ipaddr.js calls unicast) is always blocked;
 * NAT64, 6to4 and Teredo are not unicast ranges and their embedded IPv4 is judged too.
 */
export function isBlockedAddress(address: string): boolean {
  // A zone id (fe80::1%eth0) only exists on link-local scopes.
  if (address.includes('%') || !ipaddr.isValid(address)) return true;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() !== 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() !== 'unicast';
  if (v6.parts.slice(0, 6).every((p) => p === 0)) return true; // ::/96, :: and ::1 included
  // Judged on their own, independent of ipaddr.js classing these forms as non-unicast today.
  if (embeddedIPv4(v6).some((v4) => v4.range() !== 'unicast')) return true;
  return v6.range() !== 'unicast';
}

/** Host of a URL without IPv6 brackets (WHATWG URL already normalised 2130706433, 0x7f000001, 127.1). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * The checks that need no DNS: an absolute http(s) URL without credentials and, unless private
 * targets are allowed, no blocked literal address. Names (the blocked local and metadata names
 * included) are judged by refuseTarget when saved and by guardedLookup on every connection.
 * Answers the parsed URL, or the reason it is refused.
 */
export function checkUrl(raw: string | URL, allowPrivate: boolean): { url: URL } | { refused: string } {
  let url: URL;
  try {
    url = typeof raw === 'string' ? new URL(raw) : raw;
  } catch {
    return { refused: 'url must be an absolute http(s) URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { refused: 'url must use http or https' };
  if (url.username || url.password) return { refused: 'url must not carry credentials' };
  if (allowPrivate) return { url };
  const host = hostOf(url);
  if (isIP(host) && isBlockedAddress(host)) return { refused: `${host} ${NOT_ALLOWED}` };
  return { url };
}

/**
 * checkUrl plus a DNS resolution of named hosts, for validating a URL when it is saved (the
 * connection is checked again, on the address actually connected to, by guardedLookup).
 */
export async function refuseTarget(raw: string, allowPrivate: boolean): Promise<string | null> {
  const checked = checkUrl(raw, allowPrivate);
  if ('refused' in checked) return checked.refused;
  const host = hostOf(checked.url);
  if (allowPrivate || isIP(host)) return null;
  if (BLOCKED_NAMES.test(host)) return `${host} ${NOT_ALLOWED} (a local or metadata name)`;
  try {
    const addresses = await lookupAll(host, { all: true });
    const bad = addresses.find((a) => isBlockedAddress(a.address));
    return bad ? `${host} resolves to ${bad.address}, which ${NOT_ALLOWED}` : null;
  } catch {
    return 'url host cannot be resolved';
  }
}

/** How names are resolved: dns.lookup with `all: true` (replaceable in tests). */
export type Resolver = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for sockets (http.Agent, openid-client, undici `connect`): resolves the name, refuses
 * the connection when any address is blocked, and hands the checked addresses to the socket, which
 * connects to exactly those, so DNS rebinding cannot swap the address between check and connect.
 * Literal-IP hosts skip `lookup` in Node: check them with checkUrl before connecting.
 */
export function guardedLookup(allowPrivate: boolean, resolve: Resolver = lookup) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (err, list) => {
      if (err) return callback(err, []);
      if (!list.length) return callback(new Error(`No address for ${hostname}`), []);
      if (!allowPrivate) {
        const bad = BLOCKED_NAMES.test(hostname) ? list[0] : list.find((a) => isBlockedAddress(a.address));
        if (bad) return callback(new BlockedTargetError(`${hostname} (${bad.address}) ${NOT_ALLOWED}`), []);
      }
      if (options.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}
