import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlExample } from '../database/sql-example';
import { TenantDatabase } from '../tenancy/tenant-database';
import { DOCUMENT_COLUMNS, DocumentRecord } from './documents.repository';
import { PG_CJK_CLASS } from './search-text';

/** The search's query in the statements of a search: $2 the text search configuration, $3 the text. */
const TSQUERY = 'websearch_to_tsquery($2::regconfig, $3)';

const HEADLINE =
  'StartSel=<mark>, StopSel=</mark>, MaxWords=30, MinWords=8, MaxFragments=2, FragmentDelimiter=" … "';

/** The matches counted up to $4 + 1. */
const COUNT = `SELECT count(*)::int AS matched FROM (SELECT 1 FROM document_contents d
   WHERE d.company_id = $1 AND d.search_vector @@ ${TSQUERY} LIMIT $4 + 1) m`;

/** The planner's estimate of a query's matches (from the column statistics; nothing is read). */
const ESTIMATE = `EXPLAIN (FORMAT JSON) SELECT 1 FROM document_contents d
   WHERE d.company_id = $1 AND d.search_vector @@ ${TSQUERY}`;

/** The documents of a page ($4: their ids) with their highlights, over the original text. */
const pageRows = (cjk: boolean) => {
  const text = cjk
    ? `regexp_replace(left(d.extracted_text, 100000), $5, ' \\1 ', 'g')`
    : 'left(d.extracted_text, 100000)';
  return `SELECT ${DOCUMENT_COLUMNS}, left(d.extracted_text, 500) AS preview,
      ts_headline($2::regconfig, ${text}, ${TSQUERY}, '${HEADLINE}') AS highlight
    FROM document_contents d WHERE d.company_id = $1 AND d.id = ANY($4::int[])`;
};

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
 * A search of one company's documents (the company named in the path, its access checked): the
 * text search configuration and the query in websearch syntax.
 */
export interface SearchTerms {
  companyId: number;
  config: string;
  query: string;
}

export interface ScoredHit {
  id: number;
  score: number;
}

/** One score of a round and the combinations of levels that reach it (a tsquery text). */
export interface ScoreCombinations {
  score: number;
  combinations: string;
}

const TERMS: SearchTerms = { companyId: 2, config: 'english', query: 'pump inspection' };

/** The full-text search statements over `document_contents` (search-levels.ts, ranked-matches.ts). */
@Injectable()
export class DocumentSearchRepository {
  constructor(private readonly db: TenantDatabase) {}

  /** The query as PostgreSQL reads it (tsquery text). */
  @SqlExample(['english', 'pump inspection'])
  async tsquery(config: string, query: string): Promise<string> {
    const [{ text }] = await this.db.query<{ text: string }>(
      'SELECT websearch_to_tsquery($1::regconfig, $2)::text AS text',
      [config, query],
    );
    return text;
  }

  /** Matches counted up to `cap` + 1. */
  @SqlExample([TERMS, 1000])
  async countUpTo(terms: SearchTerms, cap: number): Promise<number> {
    const [{ matched }] = await this.db.query<{ matched: number }>(COUNT, [
      terms.companyId,
      terms.config,
      terms.query,
      cap,
    ]);
    return matched;
  }

  @SqlExample([TERMS])
  async estimate(terms: SearchTerms): Promise<number> {
    const [row] = await this.db.query<{ 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }>(ESTIMATE, [
      terms.companyId,
      terms.config,
      terms.query,
    ]);
    return row['QUERY PLAN'][0].Plan['Plan Rows'];
  }

  /**
   * The documents of a page with their highlights; `cjkClass` (a regular expression class) spaces
   * out CJK characters in the text so the highlight finds them.
   */
  @SqlExample((c) => [c.manager, TERMS, [5, 6], null])
  @SqlExample((c) => [
    c.manager,
    { companyId: 2, config: 'simple', query: '泵 检' },
    [5],
    `(${PG_CJK_CLASS})`,
  ])
  highlighted(
    m: EntityManager,
    terms: SearchTerms,
    ids: number[],
    cjkClass: string | null,
  ): Promise<(DocumentRecord & { highlight: string })[]> {
    const params = [terms.companyId, terms.config, terms.query, ids];
    return m.query(pageRows(cjkClass !== null), cjkClass !== null ? [...params, cjkClass] : params);
  }

  /** The newest `limit` matches of each score of a round, leaving out the ids in `taken`. */
  @SqlExample([
    TERMS,
    20,
    [],
    [
      { score: 6, combinations: "'pump':A & 'inspect':A" },
      { score: 5, combinations: "'pump':A & 'inspect':B" },
    ],
  ])
  scoreRound(
    terms: SearchTerms,
    limit: number,
    taken: number[],
    round: ScoreCombinations[],
  ): Promise<ScoredHit[]> {
    const params: unknown[] = [terms.companyId, terms.config, terms.query, limit, taken];
    const parts = round.map(({ score, combinations }) => {
      params.push(score, combinations);
      return ONE_SCORE.replace('$S', `$${params.length - 1}`).replace('$Q', `$${params.length}`);
    });
    return this.db.query<ScoredHit>(parts.join(' UNION ALL '), params);
  }

  /** Every match scored from its level lexemes, best then newest first, at most `limit`. */
  @SqlExample([TERMS, 20, ['pump#3', 'pump#2', 'inspect#3']])
  everyMatch(terms: SearchTerms, limit: number, lexemes: string[]): Promise<ScoredHit[]> {
    return this.db.query<ScoredHit>(EVERY_MATCH, [
      terms.companyId,
      terms.config,
      terms.query,
      limit,
      lexemes,
    ]);
  }

  /** The newest `limit` matches, unscored. */
  @SqlExample([TERMS, 20])
  newest(terms: SearchTerms, limit: number): Promise<ScoredHit[]> {
    return this.db.query<ScoredHit>(NEWEST, [terms.companyId, terms.config, terms.query, limit]);
  }
}
