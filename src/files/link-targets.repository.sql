-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- LinkTargetsRepository.exists
SELECT 1 FROM units WHERE id = $1 AND company_id = $2;
