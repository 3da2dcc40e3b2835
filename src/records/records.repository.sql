-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- RecordsRepository.byId #1
SELECT "r"."id" AS "r_id", "r"."name" AS "r_name", "r"."code" AS "r_code", "r"."type" AS "r_type", "r"."capacity_mw" AS "r_capacity_mw", "r"."location" AS "r_location", "r"."status" AS "r_status", "r"."company_id" AS "r_company_id", "r"."created_by_id" AS "r_created_by_id", "r"."created_at" AS "r_created_at", "r"."updated_at" AS "r_updated_at" FROM "units" "r" WHERE "r"."id" = $1 AND "r"."company_id" = $2;

-- RecordsRepository.byId #2
SELECT "r"."id" AS "r_id", "r"."name" AS "r_name", "r"."code" AS "r_code", "r"."type" AS "r_type", "r"."capacity_mw" AS "r_capacity_mw", "r"."location" AS "r_location", "r"."status" AS "r_status", "r"."company_id" AS "r_company_id", "r"."created_by_id" AS "r_created_by_id", "r"."created_at" AS "r_created_at", "r"."updated_at" AS "r_updated_at" FROM "units" "r" WHERE "r"."id" = $1 FOR UPDATE;

-- RecordsRepository.pageBy
SELECT "r"."id" AS "r_id", "r"."name" AS "r_name", "r"."code" AS "r_code", "r"."type" AS "r_type", "r"."capacity_mw" AS "r_capacity_mw", "r"."location" AS "r_location", "r"."status" AS "r_status", "r"."company_id" AS "r_company_id", "r"."created_by_id" AS "r_created_by_id", "r"."created_at" AS "r_created_at", "r"."updated_at" AS "r_updated_at" FROM "units" "r" WHERE "r"."company_id" = $1 AND "r"."status" = 'OPERATIONAL' ORDER BY "r"."created_at" DESC NULLS LAST, "r"."id" DESC LIMIT 25 OFFSET 25;
SELECT COUNT(1) AS "cnt" FROM "units" "r" WHERE "r"."company_id" = $1 AND "r"."status" = 'OPERATIONAL';

-- RecordsRepository.insert
INSERT INTO "units"("name", "code", "type", "capacity_mw", "location", "status", "company_id", "created_by_id", "created_at", "updated_at") VALUES ($1, DEFAULT, DEFAULT, DEFAULT, DEFAULT, $2, $3, DEFAULT, DEFAULT, DEFAULT) RETURNING "id", "status", "created_at", "updated_at";

-- RecordsRepository.save
SELECT "Unit"."id" AS "Unit_id", "Unit"."name" AS "Unit_name", "Unit"."code" AS "Unit_code", "Unit"."type" AS "Unit_type", "Unit"."capacity_mw" AS "Unit_capacity_mw", "Unit"."location" AS "Unit_location", "Unit"."status" AS "Unit_status", "Unit"."company_id" AS "Unit_company_id", "Unit"."created_by_id" AS "Unit_created_by_id", "Unit"."created_at" AS "Unit_created_at", "Unit"."updated_at" AS "Unit_updated_at" FROM "units" "Unit" WHERE "Unit"."id" IN ($1);
INSERT INTO "units"("name", "code", "type", "capacity_mw", "location", "status", "company_id", "created_by_id", "created_at", "updated_at") VALUES ($1, DEFAULT, DEFAULT, DEFAULT, DEFAULT, $2, DEFAULT, DEFAULT, DEFAULT, DEFAULT) RETURNING "id", "status", "created_at", "updated_at";

-- RecordsRepository.remove
DELETE FROM "units" WHERE "id" IN ($1);
