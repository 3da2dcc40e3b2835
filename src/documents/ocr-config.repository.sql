-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- OcrConfigRepository.get
SELECT id AS "companyId", name AS "companyName", ocr_enabled AS "ocrEnabled",
ocr_language AS "ocrLanguage", ocr_auto_process AS "ocrAutoProcess", ocr_file_types AS "ocrFileTypes"
FROM public.companies WHERE id = $1;

-- OcrConfigRepository.update
UPDATE public.companies SET ocr_enabled = $2, ocr_language = $3, updated_at = now() WHERE id = $1;
