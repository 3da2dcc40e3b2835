import { diffChanges, normalizeIp } from './audit-writer';

describe('diffChanges', () => {
  it('lists changed fields only and never secrets', () => {
    const before = { name: 'a', passwordHash: 'x', apiSecret: 's', status: 'ON', updatedAt: new Date(1) };
    const after = { name: 'b', passwordHash: 'y', apiSecret: 't', status: 'ON', updatedAt: new Date(2) };
    expect(diffChanges(before, after)).toEqual({ name: { old: 'a', new: 'b' } });
  });

  it('normalises IPv4 seen through an IPv6 socket', () => {
    expect(normalizeIp('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(normalizeIp('2001:db8::1')).toBe('2001:db8::1');
  });
});
