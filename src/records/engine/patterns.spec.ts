import { checkValue } from './values';
import { compilePattern, linearPatternProblem } from './patterns';

describe('field patterns', () => {
  it('match in linear time a pattern that backtracks exponentially elsewhere', () => {
    const pattern = compilePattern('^([a-z]|[a-z0-9])+$')!;
    const started = Date.now();
    expect(pattern.test(`${'a'.repeat(254)}!`)).toBe(false);
    expect(Date.now() - started).toBeLessThan(100);
    expect(pattern.test('abc123')).toBe(true);
  });

  it('find a match anywhere unless anchored, like RegExp.test', () => {
    expect(compilePattern('\\d+')!.test('unit 42')).toBe(true);
    expect(compilePattern('^\\d+$')!.test('unit 42')).toBe(false);
  });

  it('name what RE2 cannot express', () => {
    expect(linearPatternProblem('^[A-Z]{2}-\\d{4}$')).toBeNull();
    expect(linearPatternProblem('(a)\\1')).toMatch(/invalid escape/);
    expect(linearPatternProblem('(?=a)a')).toMatch(/Perl syntax/);
  });

  it('refuse every value of a stored pattern RE2 cannot compile, never evaluating it by backtracking', () => {
    const stored = compilePattern('^(a)\\1$')!;
    expect(stored.unsupported).toBeTruthy();
    const checked = checkValue({ type: 'string', regex: '^(a)\\1$' }, 'aa', stored);
    expect(checked).toEqual({ ok: false, message: expect.stringMatching(/cannot be evaluated safely/) });
  });
});
