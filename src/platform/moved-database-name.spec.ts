import { movedDatabaseName } from './client-mover';

describe('movedDatabaseName', () => {
  const job = '1f2e3d4c-0000-4000-8000-000000000000';

  it("is the client's name with the job's first 8 hex digits", () => {
    expect(movedDatabaseName('svc_acme', job)).toBe('_svc_acme_m1f2e3d4c');
  });

  it("replaces an earlier move's suffix instead of piling them up", () => {
    expect(movedDatabaseName('_svc_acme_m5a6b7c8d', job)).toBe('_svc_acme_m1f2e3d4c');
  });

  it('can never be a name provisioning derives from an identifier (those start with a letter)', () => {
    expect(movedDatabaseName('svc_acme', job)).toMatch(/^_/);
  });

  it("replaces a restore's mark too", () => {
    expect(movedDatabaseName('_svc_acme_r0a1b2c', job)).toBe('_svc_acme_m1f2e3d4c');
  });

  it('stays within 63 bytes, keeping the whole suffix', () => {
    const name = movedDatabaseName('x'.repeat(63), job);
    expect(name).toHaveLength(63);
    expect(name.endsWith('_m1f2e3d4c')).toBe(true);
  });
});
