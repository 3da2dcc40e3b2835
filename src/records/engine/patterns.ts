import { RE2JS } from 're2js';

/**
 * A field's `regex`, evaluated by an RE2 engine: matching time is linear in the value, whatever the
 * pattern, so no value can stall the event loop. `unsupported` is set for a pattern stored before
 * this rule that RE2 cannot express (a backreference, a lookaround): values of that field are then
 * refused rather than checked by a backtracking engine.
 */
export interface FieldPattern {
  readonly unsupported: string | null;
  test(value: string): boolean;
}

/** Why RE2 cannot compile `pattern`, or null when it can. */
export function linearPatternProblem(pattern: string): string | null {
  try {
    RE2JS.compile(pattern);
    return null;
  } catch (err) {
    return (err as Error).message.replace(/^error parsing regexp: /, '');
  }
}

export function compilePattern(pattern: string | undefined): FieldPattern | null {
  if (!pattern) return null;
  try {
    const re = RE2JS.compile(pattern);
    return { unsupported: null, test: (value) => re.matcher(value).find() };
  } catch (err) {
    return { unsupported: (err as Error).message, test: () => false };
  }
}
