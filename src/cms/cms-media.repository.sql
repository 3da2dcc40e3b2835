-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- CmsMediaRepository.filesOf #1
SELECT id, mime FROM uploaded_files WHERE id = ANY($1::bigint[])
AND ($2::int IS NULL OR company_id = $2::int) AND ($3::int IS NULL OR company_id = $3::int);

-- CmsMediaRepository.filesOf #2
SELECT id, mime FROM uploaded_files WHERE id = ANY($1::bigint[])
AND ($2::int IS NULL OR company_id = $2::int) AND ($3::int IS NULL OR company_id = $3::int);
