-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- RecordQueryRepository.page #1
SELECT t."id" AS "id", t."name" AS "name", t."status" AS "status", t."capacity_mw"::float8 AS "capacityMw", t."company_id" AS "companyId", t."created_at" AS "createdAt", t."id"::text AS "$sort"
FROM "units" t WHERE ($1::int IS NULL OR t."company_id" = $1::int) AND TRUE ORDER BY t."id" DESC LIMIT $2;

-- RecordQueryRepository.page #2
SELECT t."id" AS "id", t."name" AS "name", t."status" AS "status", t."capacity_mw"::float8 AS "capacityMw", t."company_id" AS "companyId", t."created_at" AS "createdAt", t."id"::text AS "$sort"
FROM "units" t WHERE t."id" = ANY (ARRAY(SELECT t."id" FROM "units" t WHERE ($1::int IS NULL OR t."company_id" = $1::int) AND TRUE ORDER BY t."id" DESC LIMIT $2 OFFSET $3)) ORDER BY t."id" DESC;

-- RecordQueryRepository.page #3
SELECT t."id" AS "id", t."name" AS "name", t."status" AS "status", t."capacity_mw"::float8 AS "capacityMw", t."company_id" AS "companyId", t."created_at" AS "createdAt", t."capacity_mw"::text AS "$sort"
FROM "units" t WHERE ($1::int IS NULL OR t."company_id" = $1::int) AND (t."status" = $2 OR t."capacity_mw" > $3::numeric) AND t."capacity_mw" IS NOT NULL ORDER BY t."capacity_mw" ASC, t."id" ASC LIMIT $4;
SELECT t."id" AS "id", t."name" AS "name", t."status" AS "status", t."capacity_mw"::float8 AS "capacityMw", t."company_id" AS "companyId", t."created_at" AS "createdAt", t."capacity_mw"::text AS "$sort"
FROM "units" t WHERE ($1::int IS NULL OR t."company_id" = $1::int) AND (t."status" = $2 OR t."capacity_mw" > $3::numeric) AND t."capacity_mw" IS NULL ORDER BY t."id" ASC LIMIT $4;

-- RecordQueryRepository.page #4
SELECT t."id" AS "id", t."name" AS "name", t."status" AS "status", t."capacity_mw"::float8 AS "capacityMw", t."company_id" AS "companyId", t."created_at" AS "createdAt", t."capacity_mw"::text AS "$sort"
FROM "units" t WHERE ($1::int IS NULL OR t."company_id" = $1::int) AND (t."capacity_mw" < $2::numeric OR (t."capacity_mw" = $2::numeric AND t."id" < $3::bigint)) ORDER BY t."capacity_mw" DESC, t."id" DESC LIMIT $4;

-- RecordQueryRepository.page #5
SELECT t."id" AS "id", t."name" AS "name", t."id"::text AS "$sort"
FROM "units" t WHERE ($1::int IS NULL OR t."company_id" = $1::int) AND TRUE ORDER BY t."id" DESC LIMIT $2;

-- RecordQueryRepository.count #1
SELECT count(*) AS count FROM "units" t WHERE ($1::int IS NULL OR t."company_id" = $1::int);

-- RecordQueryRepository.count #2
SELECT count(*) AS count FROM "units" t;

-- RecordQueryRepository.aggregate #1
SELECT t."status" AS "g0", count(*) AS "a0", sum(t."capacity_mw")::float8 AS "a1" FROM "units" t WHERE ($1::int IS NULL OR t."company_id" = $1::int) GROUP BY t."status" ORDER BY t."status" LIMIT $2;

-- RecordQueryRepository.aggregate #2
SELECT count(*) AS "a0", sum(t."capacity_mw")::float8 AS "a1" FROM "units" t WHERE ($1::int IS NULL OR t."company_id" = $1::int) AND (t."status" = $2 OR t."capacity_mw" > $3::numeric) LIMIT $4;

-- RecordQueryRepository.one #1
SELECT t."id" AS "id", t."name" AS "name", t."status" AS "status", t."capacity_mw"::float8 AS "capacityMw", t."company_id" AS "companyId", t."created_at" AS "createdAt" FROM "units" t WHERE t.id = $1 AND ($2::int IS NULL OR t."company_id" = $2::int);

-- RecordQueryRepository.one #2
SELECT t."id" AS "id", t."name" AS "name", t."status" AS "status", t."capacity_mw"::float8 AS "capacityMw", t."company_id" AS "companyId", t."created_at" AS "createdAt" FROM "units" t WHERE t.id = $1 FOR UPDATE;

-- RecordQueryRepository.exists
SELECT 1 FROM "units" t WHERE t.id = $1 AND ($2::int IS NULL OR t."company_id" = $2::int);
