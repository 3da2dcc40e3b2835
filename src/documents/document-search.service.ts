import { Injectable } from '@nestjs/common';
import { FileRecords } from '../files';
import { TenantDatabase } from '../tenancy/tenant-database';
import { tenantContext } from '../tenancy/tenant-context';
import { DOCUMENT_COLUMNS, springPage, withFiles } from './document-queries';
import { DocumentRow, documentView } from './document-view';
import { DocumentsSettings } from './documents.settings';
import { OcrConfigStore } from './ocr-config.store';
import { searchConfig } from './ocr/languages';
import { hasCjk, headlineQuery, PG_CJK_CLASS, readableHighlight, searchedQuery } from './search-text';
import { RankIndexCheck } from './search-rank-index';

const HEADLINE =
  'StartSel=<mark>, StopSel=</mark>, MaxWords=30, MinWords=8, MaxFragments=2, FragmentDelimiter=" … "';

// The query is written out where it is used (not in a CTE) so that the planner sees the folded
// tsquery: its selectivity decides between walking the newest documents and the GIN index. The walk
// orders by -id, which only the company's index (company_id, -id) gives: ordered by id, the planner
// would walk the primary key through every newer document of the schema's other companies.
const TSQUERY = 'websearch_to_tsquery($2::regconfig, $3)';

/**
 * The best $4 matches by the RUM index's distance (1 / rank), and the matches counted up to $5 + 1.
 * The count runs even when the page is past the last match, hence the outer join.
 */
const BEST_AND_COUNT = `WITH best AS (
    SELECT d.id, d.search_vector <=> ${TSQUERY} AS distance
      FROM document_contents d
     WHERE d.company_id = $1 AND d.search_vector @@ ${TSQUERY}
     ORDER BY d.search_vector <=> ${TSQUERY} LIMIT $4)
  SELECT best.id, best.distance, c.matched
    FROM (SELECT count(*) AS matched FROM (SELECT 1 FROM document_contents d
           WHERE d.company_id = $1 AND d.search_vector @@ ${TSQUERY} LIMIT $5 + 1) m) c
    LEFT JOIN best ON true`;

/** The planner's estimate of a query's matches (from the column statistics; nothing is read). */
const ESTIMATE = `EXPLAIN (FORMAT JSON) SELECT 1 FROM document_contents d
   WHERE d.company_id = $1 AND d.search_vector @@ ${TSQUERY}`;

/**
 * The newest $5 matches whose distance is exactly $4 (a tie at the edge of a page), read from the
 * company's newest documents down (document_contents_searchable_idx) until enough are found.
 */
const NEWEST_OF_DISTANCE = `SELECT d.id FROM document_contents d
   WHERE d.company_id = $1 AND d.search_vector @@ ${TSQUERY}
     AND d.search_vector <=> ${TSQUERY} = $4::float4
   ORDER BY -d.id LIMIT $5`;

/** Without the RUM index: one page ($4 rows from $5) of the ranked newest $6 matches. */
const WINDOW_PAGE = `WITH candidates AS (
    SELECT d.id, ts_rank(d.search_vector, ${TSQUERY}) AS rank
      FROM document_contents d
     WHERE d.company_id = $1 AND d.search_vector @@ ${TSQUERY}
     ORDER BY -d.id LIMIT $6 + 1),
  ranked AS (
    SELECT id, rank, count(*) OVER () AS matched FROM candidates ORDER BY -id LIMIT $6)
  SELECT id, rank, matched FROM ranked ORDER BY rank DESC, id DESC LIMIT $4 OFFSET $5`;

/** The documents of a page ($4: their ids) with their highlights, over the original text. */
const pageRows = (cjk: boolean) => {
  const text = cjk
    ? `regexp_replace(left(d.extracted_text, 100000), $5, ' \\1 ', 'g')`
    : 'left(d.extracted_text, 100000)';
  return `SELECT ${DOCUMENT_COLUMNS}, left(d.extracted_text, 500) AS preview,
      ts_headline($2::regconfig, ${text}, ${TSQUERY}, '${HEADLINE}') AS highlight
    FROM document_contents d WHERE d.company_id = $1 AND d.id = ANY($4::int[])`;
};

interface Hit {
  id: number;
  rank: number;
}

/**
 * Full-text search over a company's extracted text: the query is read with the text search
 * configuration of the company's OCR language (`websearch_to_tsquery`: words, "phrases", OR, -not;
 * CJK runs as pairs of characters, see search-text.ts), ranked, and given ts_headline highlights
 * (for the page's rows only).
 *
 * With the RUM index (document_contents_rank_idx) every match is ranked: the index hands the matches
 * out best first, so a page costs its offset plus its size. The total is counted exactly up to
 * SEARCH_EXACT_TOTAL matches; above, counting would read every match, so it is the planner's
 * estimate from the column statistics (totalExact false), never less than the count reached. Without
 * it, ranking every match of a common word would read and score every document, so a query ranks at
 * most SEARCH_RANK_WINDOW matches: the newest (highest id) when more match, the total then stopping
 * there (totalExact false).
 */
@Injectable()
export class DocumentSearchService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly configs: OcrConfigStore,
    private readonly settings: DocumentsSettings,
    private readonly files: FileRecords,
    private readonly rankIndex: RankIndexCheck,
  ) {}

  async search(companyId: number, q: string, page: number, size: number) {
    const config = await this.configs.get(companyId);
    const ts = searchConfig(config.ocrLanguage);
    const query = searchedQuery(q);
    const ranksAll = await this.rankIndex.present(tenantContext.get());
    const { hits, matched, exact } = ranksAll
      ? await this.bestMatches(companyId, ts, query, page * size, size)
      : await this.newestWindow(companyId, ts, query, page * size, size);
    const cjk = hasCjk(q);
    const rows = hits.length
      ? await this.db.run(async (m) => {
          const params = [companyId, ts, cjk ? headlineQuery(q) : query, hits.map((h) => h.id)];
          const found = await m.query<(DocumentRow & { highlight: string })[]>(
            pageRows(cjk),
            cjk ? [...params, `(${PG_CJK_CLASS})`] : params,
          );
          return withFiles(m, this.files, found);
        })
      : [];
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    const items = hits.flatMap((hit) => {
      const row = byId.get(hit.id);
      if (!row) return [];
      const highlight = cjk ? readableHighlight(row.highlight, q) : row.highlight;
      return [{ ...documentView(row, { search: true }), rank: hit.rank, highlight }];
    });
    return { ...springPage(items, matched, page, size), totalExact: exact };
  }

  /**
   * The page's matches in order of rank, then newest first. The index orders by rank only: when
   * rows of the page's last rank go on past the page, the ones before it are all known (the index
   * gave them first) and the tied ones are taken newest first.
   */
  private async bestMatches(companyId: number, ts: string, query: string, offset: number, size: number) {
    const wanted = offset + size;
    const exactUpTo = this.settings.SEARCH_EXACT_TOTAL;
    const rows = await this.db.query<{ id: number | null; distance: number; matched: string }>(
      BEST_AND_COUNT,
      [companyId, ts, query, wanted + 1, exactUpTo],
    );
    let matched = Number(rows[0]?.matched ?? 0);
    const exact = matched <= exactUpTo;
    if (!exact) matched = Math.max(matched, await this.estimate(companyId, ts, query));
    let best = rows
      .filter((r) => r.id !== null)
      .map((r) => ({ id: Number(r.id), distance: r.distance }))
      .sort((a, b) => a.distance - b.distance || b.id - a.id);
    if (best.length > wanted && best[wanted].distance === best[wanted - 1].distance) {
      const edge = best[wanted - 1].distance;
      const before = best.filter((r) => r.distance < edge);
      const tied = await this.db.query<{ id: number }>(NEWEST_OF_DISTANCE, [
        companyId,
        ts,
        query,
        edge,
        wanted - before.length,
      ]);
      best = [...before, ...tied.map((r) => ({ id: Number(r.id), distance: edge }))];
    }
    const hits = best
      .slice(offset, wanted)
      .map((r) => ({ id: r.id, rank: r.distance === Infinity ? 0 : 1 / r.distance }));
    return { hits, matched, exact };
  }

  private async estimate(companyId: number, ts: string, query: string): Promise<number> {
    const [row] = await this.db.query<{ 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }>(ESTIMATE, [
      companyId,
      ts,
      query,
    ]);
    return Math.round(row['QUERY PLAN'][0].Plan['Plan Rows']);
  }

  private async newestWindow(companyId: number, ts: string, query: string, offset: number, size: number) {
    const window = this.settings.SEARCH_RANK_WINDOW;
    const rows = await this.db.query<{ id: number; rank: number; matched: string }>(WINDOW_PAGE, [
      companyId,
      ts,
      query,
      size,
      offset,
      window,
    ]);
    let matched = rows.length ? Number(rows[0].matched) : 0;
    if (!rows.length && offset > 0) {
      const [c] = await this.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM (SELECT 1 FROM document_contents d
          WHERE d.company_id = $1 AND d.search_vector @@ ${TSQUERY} LIMIT $4 + 1) AS matches`,
        [companyId, ts, query, window],
      );
      matched = c.n;
    }
    const hits: Hit[] = rows.map((r) => ({ id: Number(r.id), rank: Number(r.rank) }));
    return { hits, matched: Math.min(matched, window), exact: matched <= window };
  }
}
