import { Injectable } from '@nestjs/common';
import { TenantDatabase } from '../tenancy/tenant-database';
import { springPage } from './document-queries';
import { DocumentRow, documentView } from './document-view';
import { OcrConfigStore } from './ocr-config.store';
import { searchConfig } from './ocr/languages';

const HEADLINE =
  'StartSel=<mark>, StopSel=</mark>, MaxWords=30, MinWords=8, MaxFragments=2, FragmentDelimiter=" … "';

/**
 * Full-text search over a company's extracted text: the query is read with the text search
 * configuration of the company's OCR language (`websearch_to_tsquery`: words, "phrases", OR, -not),
 * matched through the GIN index on the search vector, ranked with ts_rank and given ts_headline
 * highlights. Highlights are computed for the page's rows only.
 */
@Injectable()
export class DocumentSearchService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly configs: OcrConfigStore,
  ) {}

  async search(companyId: number, q: string, page: number, size: number) {
    const config = await this.configs.get(companyId);
    const ts = searchConfig(config.ocrLanguage);
    const rows = await this.db.run<(DocumentRow & { rank: number; total: string; highlight: string })[]>(
      (m) =>
        m.query(
          `WITH query AS (SELECT websearch_to_tsquery($2::regconfig, $3) AS q),
         hits AS (
           SELECT d.id, ts_rank(d.search_vector, query.q) AS rank, count(*) OVER () AS total
             FROM document_contents d, query
            WHERE d.company_id = $1 AND d.search_vector @@ query.q
            ORDER BY rank DESC, d.id DESC LIMIT $4 OFFSET $5)
         SELECT d.id, d.company_id AS "companyId", d.file_id AS "fileId", d.status,
           d.error_message AS "errorMessage", d.text_length AS "textLength", d.word_count AS "wordCount",
           d.page_count AS "pageCount", d.ocr_confidence AS "ocrConfidence", d.ocr_language AS "ocrLanguage",
           d.processing_duration_ms AS "processingDurationMs", d.processing_started_at AS "processingStartedAt",
           d.processed_at AS "processedAt", d.indexed_for_search AS "indexedForSearch", d.file_type AS "fileType",
           d.created_at AS "createdAt", f.name AS "fileName", f.mime AS "mimeType", f.size AS "fileSizeBytes",
           left(d.extracted_text, 500) AS preview, hits.rank, hits.total,
           ts_headline($2::regconfig, left(d.extracted_text, 100000), query.q, '${HEADLINE}') AS highlight
          FROM hits JOIN document_contents d ON d.id = hits.id JOIN uploaded_files f ON f.id = d.file_id, query
         ORDER BY hits.rank DESC, d.id DESC`,
          [companyId, ts, q, size, page * size],
        ),
    );
    let total = rows.length ? Number(rows[0].total) : 0;
    if (!rows.length && page > 0) {
      const [c] = await this.db.run<{ n: number }[]>((m) =>
        m.query(
          `SELECT count(*)::int AS n FROM document_contents
            WHERE company_id = $1 AND search_vector @@ websearch_to_tsquery($2::regconfig, $3)`,
          [companyId, ts, q],
        ),
      );
      total = c.n;
    }
    return springPage(
      rows.map((r) => ({
        ...documentView(r, { search: true }),
        rank: Number(r.rank),
        highlight: r.highlight,
      })),
      total,
      page,
      size,
    );
  }
}
