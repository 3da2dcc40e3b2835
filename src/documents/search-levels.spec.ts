import { LEVELS, levelCombinations, rankOf, scoredWords } from './search-levels';

const sorted = (words: Iterable<string>) => [...words].sort();

describe('scored words of a tsquery', () => {
  it.each([
    ["'valv'", ['valv'], ['valv']],
    ["'valv' & 'pump'", ['pump', 'valv'], ['pump', 'valv']],
    ["'valv' | 'pump'", ['pump', 'valv'], []],
    ["'valv' & !'pump'", ['valv'], ['valv']],
    ["'turbin' <-> 'blade' & 'valv'", ['blade', 'turbin', 'valv'], ['blade', 'turbin', 'valv']],
    ["'valv' & ( 'pump' | 'seal' )", ['pump', 'seal', 'valv'], ['valv']],
    ["( 'valv' & 'pump' ) | ( 'valv' & 'seal' )", ['pump', 'seal', 'valv'], ['valv']],
    ["!( 'valv' | !'pump' )", ['pump'], []],
    ["'o''k' & 'a\\\\b'", ['a\\b', "o'k"], ['a\\b', "o'k"]],
    ["'变压' <-> '压器'", ['压器', '变压'], ['压器', '变压']],
    ['', [], []],
  ])('%s', (query, words, required) => {
    const scored = scoredWords(query);
    expect(sorted(scored.words)).toEqual(words);
    expect(sorted(scored.required)).toEqual(required);
  });

  it('reads text PostgreSQL would not write without failing', () => {
    expect(() => scoredWords("& | ) ( ! 'x")).not.toThrow();
  });
});

describe('level combinations', () => {
  /** Every assignment of levels adding up to the score, by brute force. */
  function assignments(words: number, required: number, score: number): string[] {
    const out: string[] = [];
    const walk = (index: number, levels: number[]) => {
      if (index === words) {
        if (levels.reduce((a, b) => a + b, 0) === score && levels.some((l) => l > 0))
          out.push(levels.join(','));
        return;
      }
      for (let level = index < required ? 1 : 0; level <= LEVELS; level++)
        walk(index + 1, [...levels, level]);
    };
    walk(0, []);
    return out.sort();
  }

  /** The assignments a combination query names: one `&` group per assignment, absent words at 0. */
  function named(query: string | null, words: string[]): string[] {
    if (!query) return [];
    return query
      .split(' | ')
      .map((group) => {
        const levels = new Map(
          [...group.matchAll(/'(\w+)#(\d+)'/g)].map((m) => [m[1], Number(m[2])] as [string, number]),
        );
        return words.map((w) => levels.get(w) ?? 0).join(',');
      })
      .sort();
  }

  it.each([
    [['a'], ['a']],
    [
      ['a', 'b'],
      ['a', 'b'],
    ],
    [
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
    ],
    [['a', 'b'], ['a']],
    [['a', 'b'], []],
    [['a', 'b', 'c'], ['a']],
  ])('words %j, required %j: exactly the assignments of each score', (words, required) => {
    const scored = { words, required: new Set(required) };
    for (let score = 0; score <= LEVELS * words.length + 1; score++) {
      expect(named(levelCombinations(scored, score), words)).toEqual(
        assignments(words.length, required.length, score),
      );
    }
  });

  it('quotes words holding quotes and backslashes', () => {
    expect(levelCombinations({ words: ["o'k\\"], required: new Set(["o'k\\"]) }, 3)).toBe("'o''k\\\\#3'");
  });

  it('ranks as a share of the highest score', () => {
    expect(rankOf(LEVELS * 2, 2)).toBe(1);
    expect(rankOf(8, 1)).toBe(0.5);
    expect(rankOf(0, 0)).toBe(0);
  });
});
