import { Injectable } from '@nestjs/common';
import { FileRecords } from '../files';
import { TenantDatabase } from '../tenancy/tenant-database';
import { DocumentSearchRepository, SearchTerms } from './document-search.repository';
import { springPage, withFiles } from './document-queries';
import { documentView } from './document-view';
import { DocumentsSettings } from './documents.settings';
import { OcrConfigStore } from './ocr-config.store';
import { searchConfig } from './ocr/languages';
import { hasCjk, headlineQuery, PG_CJK_CLASS, readableHighlight, searchedQuery } from './search-text';
import { rankedMatches } from './ranked-matches';

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
    private readonly searches: DocumentSearchRepository,
  ) {}

  async search(companyId: number, q: string, page: number, size: number) {
    const config = await this.configs.get(companyId);
    const ts = searchConfig(config.ocrLanguage);
    const query = searchedQuery(q);
    const terms = { companyId, config: ts, query };
    const [hits, { matched, exact }] = await Promise.all([
      rankedMatches({ search: this.searches, terms, wanted: (page + 1) * size }).then((all) =>
        all.slice(page * size),
      ),
      this.total(terms),
    ]);
    const cjk = hasCjk(q);
    const rows = hits.length
      ? await this.db.run(async (m) => {
          const found = await this.searches.highlighted(
            m,
            { ...terms, query: cjk ? headlineQuery(q) : query },
            hits.map((h) => h.id),
            cjk ? `(${PG_CJK_CLASS})` : null,
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

  private async total(terms: SearchTerms) {
    const exactUpTo = this.settings.SEARCH_EXACT_TOTAL;
    const matched = await this.searches.countUpTo(terms, exactUpTo);
    if (matched <= exactUpTo) return { matched, exact: true };
    return { matched: Math.max(matched, Math.round(await this.searches.estimate(terms))), exact: false };
  }
}
