-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- DocumentsRepository.page #1
SELECT d.id, d.company_id AS "companyId", d.file_id AS "fileId", d.status,
d.error_message AS "errorMessage", d.text_length AS "textLength", d.word_count AS "wordCount",
d.page_count AS "pageCount", d.ocr_confidence AS "ocrConfidence", d.ocr_language AS "ocrLanguage",
d.processing_duration_ms AS "processingDurationMs", d.processing_started_at AS "processingStartedAt",
d.processed_at AS "processedAt", d.indexed_for_search AS "indexedForSearch", d.file_type AS "fileType",
d.created_at AS "createdAt", d.pages_processed AS "pagesProcessed", left(d.extracted_text, 500) AS preview, count(*) OVER () AS total
  FROM document_contents d WHERE ($1::int IS NULL OR d.company_id = $1::int) AND d.status = $2
  ORDER BY d.created_at DESC NULLS LAST, d.id DESC LIMIT 20 OFFSET 0;

-- DocumentsRepository.page #2
SELECT d.id, d.company_id AS "companyId", d.file_id AS "fileId", d.status,
d.error_message AS "errorMessage", d.text_length AS "textLength", d.word_count AS "wordCount",
d.page_count AS "pageCount", d.ocr_confidence AS "ocrConfidence", d.ocr_language AS "ocrLanguage",
d.processing_duration_ms AS "processingDurationMs", d.processing_started_at AS "processingStartedAt",
d.processed_at AS "processedAt", d.indexed_for_search AS "indexedForSearch", d.file_type AS "fileType",
d.created_at AS "createdAt", d.pages_processed AS "pagesProcessed", left(d.extracted_text, 500) AS preview, count(*) OVER () AS total
  FROM document_contents d
  ORDER BY d.id ASC NULLS LAST, d.id ASC LIMIT 20 OFFSET 40;

-- DocumentsRepository.count
SELECT count(*)::int AS n FROM document_contents d WHERE ($1::int IS NULL OR d.company_id = $1::int) AND d.status = $2;

-- DocumentsRepository.findOne #1
SELECT d.id, d.company_id AS "companyId", d.file_id AS "fileId", d.status,
d.error_message AS "errorMessage", d.text_length AS "textLength", d.word_count AS "wordCount",
d.page_count AS "pageCount", d.ocr_confidence AS "ocrConfidence", d.ocr_language AS "ocrLanguage",
d.processing_duration_ms AS "processingDurationMs", d.processing_started_at AS "processingStartedAt",
d.processed_at AS "processedAt", d.indexed_for_search AS "indexedForSearch", d.file_type AS "fileType",
d.created_at AS "createdAt", d.pages_processed AS "pagesProcessed", left(d.extracted_text, 500) AS preview FROM document_contents d WHERE ($1::int IS NULL OR d.company_id = $1::int) AND d.file_id = $2 LIMIT 1;

-- DocumentsRepository.findOne #2
SELECT d.id, d.company_id AS "companyId", d.file_id AS "fileId", d.status,
d.error_message AS "errorMessage", d.text_length AS "textLength", d.word_count AS "wordCount",
d.page_count AS "pageCount", d.ocr_confidence AS "ocrConfidence", d.ocr_language AS "ocrLanguage",
d.processing_duration_ms AS "processingDurationMs", d.processing_started_at AS "processingStartedAt",
d.processed_at AS "processedAt", d.indexed_for_search AS "indexedForSearch", d.file_type AS "fileType",
d.created_at AS "createdAt", d.pages_processed AS "pagesProcessed", d.extracted_text AS "extractedText" FROM document_contents d WHERE d.id = $1 LIMIT 1;

-- DocumentsRepository.byId
SELECT * FROM document_contents WHERE id = $1;

-- DocumentsRepository.statusCounts
SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending,
     count(*) FILTER (WHERE status = 'processing')::int AS processing,
     count(*) FILTER (WHERE status = 'completed')::int AS completed,
     count(*) FILTER (WHERE status = 'failed')::int AS failed,
     count(*) FILTER (WHERE status = 'skipped')::int AS skipped,
     count(*)::int AS total,
     coalesce(sum(text_length), 0)::bigint AS characters,
     count(*) FILTER (WHERE indexed_for_search)::int AS indexed
FROM document_contents WHERE company_id = $1;

-- DocumentsRepository.lockForRun
SELECT * FROM document_contents WHERE id = $1 FOR UPDATE;

-- DocumentsRepository.startRun
UPDATE document_contents SET status = 'processing', processing_started_at = now(), pages_processed = 0,
  updated_at = now()
WHERE id = $1;

-- DocumentsRepository.progress
UPDATE document_contents SET page_count = $2, pages_processed = $3, updated_at = now()
WHERE id = $1 AND status = 'processing';

-- DocumentsRepository.completed
UPDATE document_contents SET status = 'completed', error_message = NULL, extracted_text = $2,
  text_length = $3, word_count = $4, page_count = $5, pages_processed = $5, ocr_confidence = $6,
  ocr_language = $7,
  processing_duration_ms = $8, processed_at = now(), indexed_for_search = true,
  search_vector = to_tsvector($9::regconfig, $10), updated_at = now()
WHERE id = $1;

-- DocumentsRepository.failed
UPDATE document_contents SET status = 'failed', error_message = $2, ocr_language = $3,
  processing_duration_ms = $4, processed_at = now(), indexed_for_search = false,
  search_vector = NULL, updated_at = now()
WHERE id = $1;

-- DocumentsRepository.requeue
UPDATE document_contents SET status = 'pending', error_message = NULL, processing_started_at = NULL,
processed_at = NULL, updated_at = now() WHERE id = ANY($1::int[]);

-- DocumentsRepository.failedIds
SELECT id FROM document_contents WHERE company_id = $1 AND status = 'failed';

-- DocumentsRepository.insert
INSERT INTO "document_contents"("company_id", "file_id", "status", "error_message", "extracted_text", "text_length", "word_count", "page_count", "pages_processed", "ocr_confidence", "ocr_language", "processing_duration_ms", "processing_started_at", "processed_at", "indexed_for_search", "file_type", "created_at", "updated_at") VALUES ($1, $2, $3, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, $4, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT) RETURNING "id", "status", "text_length", "word_count", "page_count", "pages_processed", "indexed_for_search", "file_type", "created_at", "updated_at";
-- (the example ended in an error here)

-- DocumentsRepository.delete
DELETE FROM document_contents WHERE id = $1;
