-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- RecordWriteRepository.insert
INSERT INTO "units" ("created_by_id", "updated_by_id", "company_id", "name", "capacity_mw") VALUES ($1, $2, $3, $4::varchar, $5::numeric) RETURNING id;
-- (the example ended in an error here)

-- RecordWriteRepository.update
UPDATE "units" SET "updated_at" = now(), "updated_by_id" = $1, "name" = $2::varchar, "capacity_mw" = $3::numeric WHERE id = $4;
-- (the example ended in an error here)

-- RecordWriteRepository.writeLinks
-- (no statement)

-- RecordWriteRepository.lockedValue
SELECT t."name" AS value FROM "units" t WHERE t.id = $1 AND ($2::int IS NULL OR t."company_id" = $2::int) FOR UPDATE;

-- RecordWriteRepository.existing
SELECT t.id FROM "units" t WHERE t.id = ANY($1::bigint[]) AND ($2::int IS NULL OR t."company_id" = $2::int);

-- RecordWriteRepository.remove
DELETE FROM "units" WHERE id = $1;

-- RecordWriteRepository.removeMany
SELECT t."id" AS "id", t."name" AS "name", t."status" AS "status", t."capacity_mw"::float8 AS "capacityMw", t."company_id" AS "companyId", t."created_at" AS "createdAt" FROM "units" t WHERE t.id = ANY($1::bigint[]) AND ($2::int IS NULL OR t."company_id" = $2::int) FOR UPDATE;

-- RecordWriteRepository.setPublication #1
UPDATE "units" SET "publication_status" = 'PUBLISHED', "published_at" = now(), "published_by_id" = $2, "updated_at" = now() WHERE id = $1;
-- (the example ended in an error here)

-- RecordWriteRepository.setPublication #2
UPDATE "units" SET "publication_status" = 'DRAFT', "published_at" = NULL, "published_by_id" = NULL, "updated_at" = now() WHERE id = $1;
-- (the example ended in an error here)
