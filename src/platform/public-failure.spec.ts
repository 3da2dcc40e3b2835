import { publicFailure } from './public-failure';

describe('publicFailure', () => {
  it('keeps the error class and drops the names that driver messages carry', () => {
    const auth = Object.assign(new Error('password authentication failed for user "svc_acme"'), {
      code: '28P01',
    });
    const exists = Object.assign(new Error('database "svc_acme" already exists'), { code: '42P04' });
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:5432'), { code: 'ECONNREFUSED' });
    expect(publicFailure(auth)).toBe('Database error 28P01: invalid authorization');
    expect(publicFailure(exists)).toBe('Database error 42P04: syntax error or access rule violation');
    expect(publicFailure(refused)).toBe('Database server unreachable (ECONNREFUSED)');
    expect(publicFailure(new Error('at db.internal:5432 user admin'))).toBe('Failed; see the server log');
    expect(publicFailure(null)).toBe('Failed; see the server log');
  });
});
