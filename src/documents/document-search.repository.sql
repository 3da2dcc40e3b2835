-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- DocumentSearchRepository.tsquery
SELECT websearch_to_tsquery($1::regconfig, $2)::text AS text;

-- DocumentSearchRepository.countUpTo
SELECT count(*)::int AS matched FROM (SELECT 1 FROM document_contents d
WHERE d.company_id = $1 AND d.search_vector @@ websearch_to_tsquery($2::regconfig, $3) LIMIT $4 + 1) m;

-- DocumentSearchRepository.estimate
EXPLAIN (FORMAT JSON) SELECT 1 FROM document_contents d
WHERE d.company_id = $1 AND d.search_vector @@ websearch_to_tsquery($2::regconfig, $3);

-- DocumentSearchRepository.highlighted #1
SELECT d.id, d.company_id AS "companyId", d.file_id AS "fileId", d.status,
d.error_message AS "errorMessage", d.text_length AS "textLength", d.word_count AS "wordCount",
d.page_count AS "pageCount", d.ocr_confidence AS "ocrConfidence", d.ocr_language AS "ocrLanguage",
d.processing_duration_ms AS "processingDurationMs", d.processing_started_at AS "processingStartedAt",
d.processed_at AS "processedAt", d.indexed_for_search AS "indexedForSearch", d.file_type AS "fileType",
d.created_at AS "createdAt", d.pages_processed AS "pagesProcessed", left(d.extracted_text, 500) AS preview,
    ts_headline($2::regconfig, left(d.extracted_text, 100000), websearch_to_tsquery($2::regconfig, $3), 'StartSel=<mark>, StopSel=</mark>, MaxWords=30, MinWords=8, MaxFragments=2, FragmentDelimiter=" … "') AS highlight
  FROM document_contents d WHERE d.company_id = $1 AND d.id = ANY($4::int[]);

-- DocumentSearchRepository.highlighted #2
SELECT d.id, d.company_id AS "companyId", d.file_id AS "fileId", d.status,
d.error_message AS "errorMessage", d.text_length AS "textLength", d.word_count AS "wordCount",
d.page_count AS "pageCount", d.ocr_confidence AS "ocrConfidence", d.ocr_language AS "ocrLanguage",
d.processing_duration_ms AS "processingDurationMs", d.processing_started_at AS "processingStartedAt",
d.processed_at AS "processedAt", d.indexed_for_search AS "indexedForSearch", d.file_type AS "fileType",
d.created_at AS "createdAt", d.pages_processed AS "pagesProcessed", left(d.extracted_text, 500) AS preview,
    ts_headline($2::regconfig, regexp_replace(left(d.extracted_text, 100000), $5, ' \1 ', 'g'), websearch_to_tsquery($2::regconfig, $3), 'StartSel=<mark>, StopSel=</mark>, MaxWords=30, MinWords=8, MaxFragments=2, FragmentDelimiter=" … "') AS highlight
  FROM document_contents d WHERE d.company_id = $1 AND d.id = ANY($4::int[]);

-- DocumentSearchRepository.scoreRound
(SELECT d.id, $6::int AS score FROM document_contents d
WHERE d.company_id = $1 AND d.search_levels @@ $7::tsquery AND ts_match_vq(d.search_vector, websearch_to_tsquery($2::regconfig, $3))
  AND d.id <> ALL($5::int[])
ORDER BY -d.id LIMIT $4) UNION ALL (SELECT d.id, $8::int AS score FROM document_contents d
WHERE d.company_id = $1 AND d.search_levels @@ $9::tsquery AND ts_match_vq(d.search_vector, websearch_to_tsquery($2::regconfig, $3))
  AND d.id <> ALL($5::int[])
ORDER BY -d.id LIMIT $4);

-- DocumentSearchRepository.everyMatch
SELECT d.id, (SELECT coalesce(sum(substring(x FROM '#(\d+)$')::int), 0)
   FROM unnest(tsvector_to_array(d.search_levels)) x WHERE x = ANY($5::text[]))::int AS score
 FROM document_contents d WHERE d.company_id = $1 AND d.search_vector @@ websearch_to_tsquery($2::regconfig, $3)
ORDER BY score DESC, -d.id LIMIT $4;

-- DocumentSearchRepository.newest
SELECT d.id, 0 AS score FROM document_contents d
WHERE d.company_id = $1 AND d.search_vector @@ websearch_to_tsquery($2::regconfig, $3) ORDER BY -d.id LIMIT $4;
