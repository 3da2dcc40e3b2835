import { LookupAddress } from 'node:dns';
import { guardedLookup, isBlockedAddress, refuseTarget } from './ssrf-guard';

const lookupAll = (allowPrivate: boolean, host: string) =>
  new Promise<{ err: Error | null; addresses?: LookupAddress[] }>((resolve) =>
    guardedLookup(allowPrivate)(host, { all: true }, (err, addresses) =>
      resolve({ err, addresses: addresses as unknown as LookupAddress[] }),
    ),
  );

describe('SSRF guard', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['192.168.0.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['fd00:ec2::254', true],
    ['fe80::1', true],
    ['not-an-ip', true],
    ['93.184.215.14', false],
    ['2606:4700::1111', false],
  ])('isBlockedAddress(%s) = %s', (address, blocked) => {
    expect(isBlockedAddress(address)).toBe(blocked);
  });

  it('refuses numeric and mapped loopback forms the URL parser normalises', async () => {
    for (const url of [
      'http://2130706433/',
      'http://0x7f000001/',
      'http://127.1/',
      'http://[::ffff:127.0.0.1]/',
    ]) {
      expect(await refuseTarget(url, false)).toMatch(/loopback|private/);
    }
    expect(await refuseTarget('http://93.184.215.14/x', false)).toBeNull();
    expect(await refuseTarget('http://127.0.0.1:8080/', true)).toBeNull();
    expect(await refuseTarget('file:///etc/passwd', true)).toMatch(/http/);
  });

  it('refuses a name resolving to loopback at connection time, and pins the checked address otherwise', async () => {
    const refused = await lookupAll(false, 'localhost');
    expect(refused.err?.message).toMatch(/blocked/);
    const allowed = await lookupAll(true, 'localhost');
    expect(allowed.err).toBeNull();
    expect(allowed.addresses!.every((a) => isBlockedAddress(a.address))).toBe(true);
  });
});
