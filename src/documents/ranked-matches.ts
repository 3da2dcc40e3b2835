import { DocumentSearchRepository, ScoreCombinations, SearchTerms } from './document-search.repository';
import {
  allLevelLexemes,
  LEVELS,
  levelCombinations,
  MAX_WALKED_WORDS,
  rankOf,
  ScoredWords,
  scoredWords,
} from './search-levels';

export interface RankedHit {
  id: number;
  rank: number;
}

/** A search: its terms, how many hits, and where it runs. */
interface Search {
  search: DocumentSearchRepository;
  terms: SearchTerms;
  wanted: number;
}

/** Scores looked up per round trip while walking down. */
const SCORES_PER_ROUND = 4;

/**
 * The best `wanted` matches of a query, best score first, then newest first (search-levels.ts):
 * walks the scores down from the highest the query's words can reach, a few per round trip, until
 * enough matches are found. A page costs the matches before it, not a read of every match.
 */
export async function rankedMatches(search: Search): Promise<RankedHit[]> {
  const text = await search.search.tsquery(search.terms.config, search.terms.query);
  const scored = scoredWords(text);
  if (!scored.words.length || scored.words.length > MAX_WALKED_WORDS) return everyMatchScored(search, scored);
  return walkScores(search, scored);
}

async function walkScores({ search, terms, wanted }: Search, scored: ScoredWords): Promise<RankedHit[]> {
  const count = scored.words.length;
  const lowest = Math.max(1, scored.required.size);
  // Words that may be absent put a match under several scores: the ones taken are left out below.
  const mayRepeat = scored.required.size < count;
  const hits: RankedHit[] = [];
  const taken = new Set<number>();
  for (let score = LEVELS * count; score >= lowest && hits.length < wanted;) {
    const round: ScoreCombinations[] = [];
    for (let s = score; s >= lowest && round.length < SCORES_PER_ROUND; s--) {
      const combinations = levelCombinations(scored, s);
      if (combinations) round.push({ score: s, combinations });
    }
    if (!round.length) break;
    const limit = wanted - hits.length;
    const rows = await search.scoreRound(terms, limit, mayRepeat ? [...taken] : [], round);
    score = round[round.length - 1].score - 1;
    for (const { score: s } of round) {
      const ofScore = rows.filter((r) => r.score === s).map((r) => Number(r.id));
      for (const id of ofScore.sort((a, b) => b - a)) {
        if (taken.has(id) || hits.length >= wanted) continue;
        taken.add(id);
        hits.push({ id, rank: rankOf(s, count) });
      }
      if (ofScore.length === limit && hits.length < wanted) {
        score = s; // this score may hold more matches than were asked for: ask again from it
        break;
      }
    }
  }
  return hits;
}

async function everyMatchScored(
  { search, terms, wanted }: Search,
  scored: ScoredWords,
): Promise<RankedHit[]> {
  const rows = scored.words.length
    ? await search.everyMatch(terms, wanted, allLevelLexemes(scored.words))
    : await search.newest(terms, wanted);
  return rows.map((r) => ({ id: Number(r.id), rank: rankOf(r.score, scored.words.length) }));
}
