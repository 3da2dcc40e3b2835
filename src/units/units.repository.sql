-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- UnitsRepository.page #1
SELECT id, name, code, type, capacity_mw, location, status, company_id, created_by_id,
      to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at,
      count(*) OVER () AS total
 FROM units
WHERE ($1::int IS NULL OR company_id = $1::int)
  AND ($2::text IS NULL OR status = $2)
  AND ($3::text IS NULL OR name ILIKE $3 OR code ILIKE $3)
ORDER BY id
LIMIT $4 OFFSET $5;

-- UnitsRepository.page #2
SELECT id, name, code, type, capacity_mw, location, status, company_id, created_by_id,
      to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at,
      count(*) OVER () AS total
 FROM units
WHERE ($1::int IS NULL OR company_id = $1::int)
  AND ($2::text IS NULL OR status = $2)
  AND ($3::text IS NULL OR name ILIKE $3 OR code ILIKE $3)
ORDER BY id
LIMIT $4 OFFSET $5;

-- UnitsRepository.count
SELECT count(*) AS total FROM units
WHERE ($1::int IS NULL OR company_id = $1::int)
AND ($2::text IS NULL OR status = $2)
AND ($3::text IS NULL OR name ILIKE $3 OR code ILIKE $3);

-- UnitsRepository.usage
SELECT (SELECT count(*) FROM work_orders WHERE unit_id = $1)::int AS work_orders,
(SELECT count(*) FROM failures WHERE unit_id = $1)::int AS failures;
