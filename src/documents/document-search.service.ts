import { Injectable } from '@nestjs/common';
import { FileRecords } from '../files';
import { TenantDatabase } from '../tenancy/tenant-database';
import { DOCUMENT_COLUMNS, springPage, withFiles } from './document-queries';
import { DocumentRow, documentView } from './document-view';
import { DocumentsSettings } from './documents.settings';
import { OcrConfigStore } from './ocr-config.store';
import { searchConfig } from './ocr/languages';
import { hasCjk, headlineQuery, PG_CJK_CLASS, readableHighlight, searchedQuery } from './search-text';
import { rankedMatches, TSQUERY } from './ranked-matches';

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
 * Full-text search over a company's extracted text: the query is read with the text search
 * configuration of the company's OCR language (`websearch_to_tsquery`: words, "phrases", OR, -not;
 * CJK runs as pairs of characters, see search-text.ts), every match ranked by its words' levels
 * (search-levels.ts) and given ts_headline highlights (for the page's rows only).
 *
 * The total is counted exactly up to SEARCH_EXACT_TOTAL matches; above, counting would read every
 * match, so it is the planner's estimate from the column statistics (totalExact false), never less
 * than the count reached.
 */
@Injectable()
export class DocumentSearchService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly configs: OcrConfigStore,
    private readonly settings: DocumentsSettings,
    private readonly files: FileRecords,
  ) {}

  async search(companyId: number, q: string, page: number, size: number) {
    const config = await this.configs.get(companyId);
    const ts = searchConfig(config.ocrLanguage);
    const query = searchedQuery(q);
    const [hits, { matched, exact }] = await Promise.all([
      rankedMatches({ db: this.db, companyId, config: ts, query, wanted: (page + 1) * size }).then((all) =>
        all.slice(page * size),
      ),
      this.total(companyId, ts, query),
    ]);
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

  private async total(companyId: number, ts: string, query: string) {
    const exactUpTo = this.settings.SEARCH_EXACT_TOTAL;
    const [{ matched }] = await this.db.query<{ matched: number }>(COUNT, [companyId, ts, query, exactUpTo]);
    if (matched <= exactUpTo) return { matched, exact: true };
    return { matched: Math.max(matched, await this.estimate(companyId, ts, query)), exact: false };
  }

  private async estimate(companyId: number, ts: string, query: string): Promise<number> {
    const [row] = await this.db.query<{ 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }>(ESTIMATE, [
      companyId,
      ts,
      query,
    ]);
    return Math.round(row['QUERY PLAN'][0].Plan['Plan Rows']);
  }
}
