import { TenantDatabase } from '../tenancy/tenant-database';
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

/** A search: the company, the text search configuration, the query (websearch syntax), how many hits. */
interface Search {
  db: TenantDatabase;
  companyId: number;
  config: string;
  query: string;
  wanted: number;
}

/** The search's query in the statements of a search: $2 the text search configuration, $3 the text. */
export const TSQUERY = 'websearch_to_tsquery($2::regconfig, $3)';

/** Scores looked up per round trip while walking down. */
const SCORES_PER_ROUND = 4;

/**
 * The newest $4 matches of one score ($S, its combinations of levels $Q), leaving out the ids in $5.
 * The level combinations find the candidates through the GIN index; the query itself decides the
 * match (phrases, exclusions, alternatives) on those candidates only: written as a function call so
 * that the planner does not also read every match from the search_vector index to intersect them.
 */
const ONE_SCORE = `(SELECT d.id, $S::int AS score FROM document_contents d
   WHERE d.company_id = $1 AND d.search_levels @@ $Q::tsquery AND ts_match_vq(d.search_vector, ${TSQUERY})
     AND d.id <> ALL($5::int[])
   ORDER BY -d.id LIMIT $4)`;

/** The newest $4 matches (a query that scores no word: only excluded ones). */
const NEWEST = `SELECT d.id, 0 AS score FROM document_contents d
   WHERE d.company_id = $1 AND d.search_vector @@ ${TSQUERY} ORDER BY -d.id LIMIT $4`;

/** Every match scored from its levels (queries of many words), best then newest first. */
const EVERY_MATCH = `SELECT d.id, (SELECT coalesce(sum(substring(x FROM '#(\\d+)$')::int), 0)
      FROM unnest(tsvector_to_array(d.search_levels)) x WHERE x = ANY($5::text[]))::int AS score
    FROM document_contents d WHERE d.company_id = $1 AND d.search_vector @@ ${TSQUERY}
   ORDER BY score DESC, -d.id LIMIT $4`;

/**
 * The best `wanted` matches of a query, best score first, then newest first (search-levels.ts):
 * walks the scores down from the highest the query's words can reach, a few per round trip, until
 * enough matches are found. A page costs the matches before it, not a read of every match.
 */
export async function rankedMatches(search: Search): Promise<RankedHit[]> {
  const [{ text }] = await search.db.query<{ text: string }>(
    'SELECT websearch_to_tsquery($1::regconfig, $2)::text AS text',
    [search.config, search.query],
  );
  const scored = scoredWords(text);
  if (!scored.words.length || scored.words.length > MAX_WALKED_WORDS) return everyMatchScored(search, scored);
  return walkScores(search, scored);
}

async function walkScores(
  { db, companyId, config, query, wanted }: Search,
  scored: ScoredWords,
): Promise<RankedHit[]> {
  const count = scored.words.length;
  const lowest = Math.max(1, scored.required.size);
  // Words that may be absent put a match under several scores: the ones taken are left out below.
  const mayRepeat = scored.required.size < count;
  const hits: RankedHit[] = [];
  const taken = new Set<number>();
  for (let score = LEVELS * count; score >= lowest && hits.length < wanted;) {
    const round: { score: number; combinations: string }[] = [];
    for (let s = score; s >= lowest && round.length < SCORES_PER_ROUND; s--) {
      const combinations = levelCombinations(scored, s);
      if (combinations) round.push({ score: s, combinations });
    }
    if (!round.length) break;
    const limit = wanted - hits.length;
    const params: unknown[] = [companyId, config, query, limit, mayRepeat ? [...taken] : []];
    const parts = round.map(({ score: s, combinations }) => {
      params.push(s, combinations);
      return ONE_SCORE.replace('$S', `$${params.length - 1}`).replace('$Q', `$${params.length}`);
    });
    const rows = await db.query<{ id: number; score: number }>(parts.join(' UNION ALL '), params);
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
  { db, companyId, config, query, wanted }: Search,
  scored: ScoredWords,
): Promise<RankedHit[]> {
  const rows = scored.words.length
    ? await db.query<{ id: number; score: number }>(EVERY_MATCH, [
        companyId,
        config,
        query,
        wanted,
        allLevelLexemes(scored.words),
      ])
    : await db.query<{ id: number; score: number }>(NEWEST, [companyId, config, query, wanted]);
  return rows.map((r) => ({ id: Number(r.id), rank: rankOf(r.score, scored.words.length) }));
}
