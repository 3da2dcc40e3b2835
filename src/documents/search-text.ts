/**
 * How search reads Chinese, Japanese and Korean: PostgreSQL's parser splits text on spaces and
 * punctuation, and these scripts put none between words, so a whole line would be one token. As
 * Lucene's CJK analyzer does, every run of CJK characters is indexed as its overlapping pairs of
 * characters (变压器检查 → 变压 压器 器检 检查) and a query's runs become the phrase of their pairs,
 * so a word of two characters or more is found wherever it stands. Whitespace between two CJK
 * characters does not end a run: OCR often puts spaces between the characters of a line.
 */

/** Han (with extensions and compatibility ideographs), Hiragana, Katakana (with ー), Hangul. */
const CJK_RANGES: [number, number][] = [
  [0x1100, 0x11ff],
  [0x3040, 0x30ff],
  [0x3130, 0x318f],
  [0x31f0, 0x31ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa960, 0xa97f],
  [0xac00, 0xd7af],
  [0xd7b0, 0xd7ff],
  [0xf900, 0xfaff],
  [0xff66, 0xff9f],
  [0x20000, 0x2fa1f],
];

const hex = (n: number) => n.toString(16).padStart(4, '0');
const jsClass = `[${CJK_RANGES.map(([a, b]) => `\\u{${hex(a)}}-\\u{${hex(b)}}`).join('')}]`;
const CJK_CHAR = new RegExp(jsClass, 'u');
const CJK_RUN = new RegExp(`${jsClass}(?:\\s*${jsClass})*`, 'gu');
/** Whitespace between two CJK characters, <mark> tags around it allowed (for highlights). */
const GAP_IN_RUN = new RegExp(`(?<=${jsClass}(?:</?mark>)*)\\s+(?=(?:</?mark>)*${jsClass})`, 'gu');

const pgEscape = (n: number) => (n > 0xffff ? `\\U${n.toString(16).padStart(8, '0')}` : `\\u${hex(n)}`);
/** The same class for PostgreSQL's regular expressions (advanced regex syntax). */
export const PG_CJK_CLASS = `[${CJK_RANGES.map(([a, b]) => `${pgEscape(a)}-${pgEscape(b)}`).join('')}]`;

export const hasCjk = (text: string) => CJK_CHAR.test(text);

/** The characters of a run, whitespace dropped, as overlapping pairs (a lone character stays). */
function bigrams(run: string): string {
  const chars = [...run.replace(/\s+/gu, '')];
  if (chars.length < 2) return chars.join('');
  return chars
    .slice(1)
    .map((c, i) => chars[i] + c)
    .join(' ');
}

/** The text given to to_tsvector: every CJK run replaced by its pairs of characters. */
export function indexedText(text: string): string {
  return text.replace(CJK_RUN, (run) => ` ${bigrams(run)} `);
}

/**
 * A websearch query (words, "phrases", or, -not) with each CJK word turned into the phrase of its
 * pairs. Outside quotes, whitespace separates words (each must be found); inside quotes a run is
 * joined across whitespace as the indexed text is. `-` before a word keeps negating it.
 */
export function searchedQuery(q: string, split: (run: string) => string = bigrams): string {
  let out = '';
  let inQuotes = false;
  let last = 0;
  for (const match of q.matchAll(CJK_RUN)) {
    const before = q.slice(last, match.index);
    inQuotes = (before.split('"').length - 1) % 2 === 1 ? !inQuotes : inQuotes;
    out += before;
    const glued = out === '' || /[\s"-]$/.test(out);
    const words = inQuotes
      ? split(match[0])
      : match[0]
          .split(/(\s+)/u)
          .map((part) => (part.trim() ? `"${split(part)}"` : part))
          .join('');
    out += `${glued ? '' : ' '}${words} `;
    last = match.index + match[0].length;
  }
  return out + q.slice(last);
}

/** The query of a highlight over text whose CJK characters stand one per token (see `spacedForHeadline`). */
export const headlineQuery = (q: string) =>
  searchedQuery(q, (run) => [...run.replace(/\s+/gu, '')].join(' '));

const LONE_MARK = new RegExp(`<mark>(${jsClass})</mark>`, 'gu');

/**
 * A highlight computed over text whose CJK characters were spaced out, made readable again: no
 * space between two CJK characters, and one <mark> per matched word rather than per character.
 * ts_headline marks every occurrence of a query's character, in the matched word or not: a lone
 * marked character is unmarked unless the query searched for one.
 */
export function readableHighlight(highlight: string, q: string): string {
  const merged = highlight.replace(GAP_IN_RUN, '').replace(/<\/mark><mark>/g, '');
  const searchesOneChar = [...q.matchAll(CJK_RUN)].some(
    (run) => [...run[0].replace(/\s+/gu, '')].length === 1,
  );
  return searchesOneChar ? merged : merged.replace(LONE_MARK, '$1');
}
