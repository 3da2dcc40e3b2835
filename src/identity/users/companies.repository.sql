-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- CompaniesRepository.list
SELECT "Company"."id" AS "Company_id", "Company"."name" AS "Company_name", "Company"."created_at" AS "Company_created_at", "Company"."updated_at" AS "Company_updated_at" FROM "companies" "Company" ORDER BY "Company"."id" ASC;

-- CompaniesRepository.findById
SELECT "Company"."id" AS "Company_id", "Company"."name" AS "Company_name", "Company"."created_at" AS "Company_created_at", "Company"."updated_at" AS "Company_updated_at" FROM "companies" "Company" WHERE (("Company"."id" = $1)) LIMIT 1;

-- CompaniesRepository.lockById
SELECT "Company"."id" AS "Company_id", "Company"."name" AS "Company_name", "Company"."created_at" AS "Company_created_at", "Company"."updated_at" AS "Company_updated_at" FROM "companies" "Company" WHERE (("Company"."id" = $1)) LIMIT 1 FOR UPDATE;

-- CompaniesRepository.exists
SELECT 1 FROM public.companies WHERE id = $1;

-- CompaniesRepository.firstId
SELECT id FROM public.companies ORDER BY id LIMIT 1;

-- CompaniesRepository.insertNamed
INSERT INTO public.companies (name) VALUES ($1) RETURNING id;

-- CompaniesRepository.save
INSERT INTO "companies"("name", "created_at", "updated_at") VALUES ($1, DEFAULT, DEFAULT) RETURNING "id", "created_at", "updated_at";

-- CompaniesRepository.delete
DELETE FROM "companies" WHERE "id" = $1;
