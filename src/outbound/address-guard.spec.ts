import { LookupAddress } from 'node:dns';
import { checkUrl, guardedLookup, isBlockedAddress, refuseTarget } from './address-guard';

const resolveWith = (allowPrivate: boolean, host: string) =>
  new Promise<{ err: Error | null; addresses: LookupAddress[] }>((resolve) =>
    guardedLookup(allowPrivate)(host, { all: true }, (err, addresses) =>
      resolve({ err, addresses: addresses as LookupAddress[] }),
    ),
  );

describe('address guard', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.0.1', 'private'],
    ['169.254.169.254', 'link-local metadata'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['198.18.0.1', 'benchmarking'],
    ['192.0.2.1', 'documentation'],
    ['240.0.0.1', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata'],
    ['::7f00:1', 'IPv4-compatible loopback (::/96)'],
    ['::a00:1', 'IPv4-compatible private (::/96)'],
    ['::5db8:d70e', 'IPv4-compatible, deprecated even with a public IPv4'],
    ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['64:ff9b:1::a00:1', 'local-use NAT64'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['2002:5db8:d70e::1', '6to4 (not a unicast range)'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['fd00:ec2::254', 'unique-local metadata'],
    ['fc00::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with zone'],
    ['ff02::1', 'multicast'],
    ['ff0e::1', 'global multicast'],
    ['2001:db8::1', 'documentation'],
    ['100::1', 'discard'],
    ['not-an-ip', 'not an address'],
  ])('blocks %s (%s)', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '2606:4700::1111',
    '2a00:1450:4001:81b::200e',
    '::ffff:93.184.215.14',
  ])('allows public unicast %s', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });

  it('refuses numeric, mapped and compatible loopback forms the URL parser normalises', async () => {
    for (const url of [
      'http://2130706433/',
      'http://0x7f000001/',
      'http://127.1/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::127.0.0.1]/',
      'http://[64:ff9b::127.0.0.1]/',
      'http://0/',
      'http://localhost./',
      'http://metadata.google.internal/',
    ]) {
      expect(await refuseTarget(url, false)).toMatch(/not allowed/);
    }
    expect(await refuseTarget('http://93.184.215.14/x', false)).toBeNull();
    expect(await refuseTarget('http://127.0.0.1:8080/', true)).toBeNull();
    expect(await refuseTarget('file:///etc/passwd', true)).toMatch(/http/);
    expect(await refuseTarget('http://user:pw@93.184.215.14/', false)).toMatch(/credentials/);
    expect(checkUrl('http://[::1]/', true)).toEqual({ url: new URL('http://[::1]/') });
  });

  it('refuses a name resolving to loopback at connection time, and hands over the checked addresses otherwise', async () => {
    const refused = await resolveWith(false, 'localhost');
    expect(refused.err?.message).toMatch(/not allowed/);
    expect((refused.err as NodeJS.ErrnoException).code).toBe('EBLOCKEDTARGET');
    const allowed = await resolveWith(true, 'localhost');
    expect(allowed.err).toBeNull();
    expect(allowed.addresses.length).toBeGreaterThan(0);
    expect(allowed.addresses.every((a) => isBlockedAddress(a.address))).toBe(true);
  });
});
