import { Injectable } from '@nestjs/common';
import { FileRecords } from '../files';
import { TenantDatabase } from '../tenancy/tenant-database';
import { DOCUMENT_COLUMNS, springPage, withFiles } from './document-queries';
import { DocumentRow, documentView } from './document-view';
import { DocumentsSettings } from './documents.settings';
import { OcrConfigStore } from './ocr-config.store';
import { searchConfig } from './ocr/languages';

const HEADLINE =
  'StartSel=<mark>, StopSel=</mark>, MaxWords=30, MinWords=8, MaxFragments=2, FragmentDelimiter=" … "';

// The query is written out where it is used (not in a CTE) so that the planner sees the folded
// tsquery: its selectivity decides between walking the newest documents and the GIN index. The walk
// orders by -id, which only the company's index (company_id, -id) gives: ordered by id, the planner
// would walk the primary key through every newer document of the schema's other companies.
const TSQUERY = 'websearch_to_tsquery($2::regconfig, $3)';

/** One page of the ranked hits ($4 rows from $5) of the newest $6 matches, with their highlights. */
const PAGE_OF_HITS = `WITH candidates AS (
    SELECT d.id, ts_rank(d.search_vector, ${TSQUERY}) AS rank
      FROM document_contents d
     WHERE d.company_id = $1 AND d.search_vector @@ ${TSQUERY}
     ORDER BY -d.id LIMIT $6 + 1),
  ranked AS (
    SELECT id, rank, count(*) OVER () AS matched FROM candidates ORDER BY -id LIMIT $6),
  hits AS (SELECT id, rank, matched FROM ranked ORDER BY rank DESC, id DESC LIMIT $4 OFFSET $5)
  SELECT ${DOCUMENT_COLUMNS}, left(d.extracted_text, 500) AS preview, hits.rank, hits.matched,
    ts_headline($2::regconfig, left(d.extracted_text, 100000), ${TSQUERY}, '${HEADLINE}') AS highlight
   FROM hits JOIN document_contents d ON d.id = hits.id
  ORDER BY hits.rank DESC, d.id DESC`;

/**
 * Full-text search over a company's extracted text: the query is read with the text search
 * configuration of the company's OCR language (`websearch_to_tsquery`: words, "phrases", OR, -not),
 * ranked with ts_rank and given ts_headline highlights (for the page's rows only).
 *
 * Ranking every match of a common word costs a read and a ts_rank of every document, so a query
 * ranks at most SEARCH_RANK_WINDOW matches: all of them when there are no more, otherwise the newest
 * (highest id, the ranking's own tie-break). The total counts the window and says whether it is exact.
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
    const window = this.settings.SEARCH_RANK_WINDOW;
    const rows = await this.db.run(async (m) => {
      const hits = await m.query<(DocumentRow & { rank: number; matched: string; highlight: string })[]>(
        PAGE_OF_HITS,
        [companyId, ts, q, size, page * size, window],
      );
      return withFiles(m, this.files, hits);
    });
    let matched = rows.length ? Number(rows[0].matched) : 0;
    if (!rows.length && page > 0) {
      const [c] = await this.db.run<{ n: number }[]>((m) =>
        m.query(
          `SELECT count(*)::int AS n FROM (SELECT 1 FROM document_contents
            WHERE company_id = $1 AND search_vector @@ ${TSQUERY} LIMIT $4 + 1) AS matches`,
          [companyId, ts, q, window],
        ),
      );
      matched = c.n;
    }
    const items = rows.map((r) => ({
      ...documentView(r, { search: true }),
      rank: Number(r.rank),
      highlight: r.highlight,
    }));
    return { ...springPage(items, Math.min(matched, window), page, size), totalExact: matched <= window };
  }
}
