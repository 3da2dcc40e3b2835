/**
 * Ranking by word levels. When a document is indexed, each of its words gets a level from 1 to
 * LEVELS: BM25's term-frequency part, tf·(k1+1) / (tf + k1·(1 − b + b·length/250)) with
 * k1 = 1.2, b = 0.75 and the length in words, scaled to 1..LEVELS (column `search_levels`, a generated column holding
 * `word#level` for every word, GIN-indexed). A match's score is the sum of the levels of the query's
 * words it contains. Because scores are small integers, the best matches are found score by score
 * from the top: all documents of one score are those holding one of the few combinations of levels
 * that add up to it, which the GIN index answers without reading the other matches.
 */
export const LEVELS = 16;

/** Queries with more scored words than this rank by scoring every match (the combinations multiply). */
export const MAX_WALKED_WORDS = 3;

/** The words a query scores with, and those every match must hold (the others may be absent). */
export interface ScoredWords {
  words: string[];
  required: Set<string>;
}

type Node = { kind: 'word'; word: string } | { kind: 'not'; of: Node } | { kind: 'and' | 'or'; of: Node[] };

/**
 * Reads PostgreSQL's text form of a tsquery (`'valv' & !'pump' | 'a' <-> 'b'`): the words not under
 * a negation are scored; a word is required when every match holds it (`&` and phrases join,
 * `|` keeps what both sides require, `!` requires nothing).
 */
export function scoredWords(tsquery: string): ScoredWords {
  const tokens = tokenize(tsquery);
  if (!tokens.length) return { words: [], required: new Set() };
  let at = 0;
  const peek = () => tokens[at];
  const or = (): Node => {
    const of = [and()];
    while (peek() === '|') {
      at++;
      of.push(and());
    }
    return of.length === 1 ? of[0] : { kind: 'or', of };
  };
  const and = (): Node => {
    const of = [unary()];
    while (peek() === '&' || peek()?.startsWith('<')) {
      at++;
      of.push(unary());
    }
    return of.length === 1 ? of[0] : { kind: 'and', of };
  };
  const unary = (): Node => {
    const token = tokens[at++];
    if (token === '!') return { kind: 'not', of: unary() };
    if (token === '(') {
      const inner = or();
      at++; // ')'
      return inner;
    }
    if (token?.startsWith("'")) return { kind: 'word', word: token.slice(1) };
    return { kind: 'and', of: [] }; // not PostgreSQL's output: scores nothing rather than fail
  };
  const root = or();
  const words = new Set<string>();
  collectScored(root, false, words);
  return { words: [...words], required: requiredOf(root) };
}

/** Words come out as `'word` (quote kept as a marker); operators and parentheses as themselves. */
function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (let i = 0; i < text.length;) {
    const c = text[i];
    if (c === ' ') i++;
    else if (c === "'") {
      let word = '';
      for (i++; i < text.length; i++) {
        if (text[i] === "'" && text[i + 1] === "'") word += text[++i];
        else if (text[i] === '\\' && i + 1 < text.length) word += text[++i];
        else if (text[i] === "'") break;
        else word += text[i];
      }
      i++;
      while (text[i] === ':' || /[*A-D]/.test(text[i] ?? '')) i++; // weights or prefix: not produced by websearch
      tokens.push(`'${word}`);
    } else if (c === '<') {
      const end = text.indexOf('>', i);
      tokens.push(text.slice(i, end + 1));
      i = end + 1;
    } else {
      tokens.push(c);
      i++;
    }
  }
  return tokens;
}

function collectScored(node: Node, negated: boolean, into: Set<string>) {
  if (node.kind === 'word') {
    if (!negated) into.add(node.word);
  } else if (node.kind === 'not') collectScored(node.of, !negated, into);
  else for (const child of node.of) collectScored(child, negated, into);
}

function requiredOf(node: Node): Set<string> {
  switch (node.kind) {
    case 'word':
      return new Set([node.word]);
    case 'not':
      return new Set();
    case 'and':
      return new Set(node.of.flatMap((child) => [...requiredOf(child)]));
    case 'or': {
      const [first, ...rest] = node.of.map(requiredOf);
      return new Set([...first].filter((w) => rest.every((r) => r.has(w))));
    }
  }
}

const lexeme = (word: string, level: number) => `'${`${word}#${level}`.replace(/['\\]/g, (c) => c + c)}'`;

/**
 * A tsquery over `search_levels` matching the documents whose scored words' levels add up to
 * `score` (required words at 1..LEVELS, the others at 0..LEVELS, 0 meaning absent and left out of
 * the combination: a document holding it scores more and was taken at a higher score). Null when
 * no combination adds up to it.
 */
export function levelCombinations({ words, required }: ScoredWords, score: number): string | null {
  const combinations: string[] = [];
  const walk = (index: number, left: number, parts: string[]) => {
    if (index === words.length) {
      if (left === 0 && parts.length)
        combinations.push(parts.length === 1 ? parts[0] : `(${parts.join(' & ')})`);
      return;
    }
    const rest = words.length - index - 1;
    const lowest = required.has(words[index]) ? 1 : 0;
    for (let level = lowest; level <= Math.min(LEVELS, left); level++) {
      if (left - level > rest * LEVELS) continue;
      walk(index + 1, left - level, level ? [...parts, lexeme(words[index], level)] : parts);
    }
  };
  walk(0, score, []);
  return combinations.length ? combinations.join(' | ') : null;
}

/** Every `word#level` of the scored words (for scoring a match directly). */
export const allLevelLexemes = (words: string[]) =>
  words.flatMap((word) => Array.from({ length: LEVELS }, (_, i) => `${word}#${i + 1}`));

/** The rank shown for a score: the share of the highest score the query's words could reach. */
export const rankOf = (score: number, words: number) => (words ? score / (LEVELS * words) : 0);
