-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- SandboxesRepository.all
SELECT "Sandbox"."id" AS "Sandbox_id", "Sandbox"."name" AS "Sandbox_name", "Sandbox"."slug" AS "Sandbox_slug", "Sandbox"."description" AS "Sandbox_description", "Sandbox"."schema_name" AS "Sandbox_schema_name", "Sandbox"."created_by_id" AS "Sandbox_created_by_id", "Sandbox"."created_at" AS "Sandbox_created_at" FROM "sandboxes" "Sandbox" ORDER BY "Sandbox"."id" ASC;

-- SandboxesRepository.usableBy
SELECT "s"."id" AS "s_id", "s"."name" AS "s_name", "s"."slug" AS "s_slug", "s"."description" AS "s_description", "s"."schema_name" AS "s_schema_name", "s"."created_by_id" AS "s_created_by_id", "s"."created_at" AS "s_created_at" FROM "sandboxes" "s" WHERE "s"."created_by_id" = $1 OR EXISTS (SELECT 1 FROM user_sandboxes us WHERE us.sandbox_id = "s"."id" AND us.user_id = $1) ORDER BY "s"."id" ASC;

-- SandboxesRepository.count
SELECT COUNT(1) AS "cnt" FROM "sandboxes" "Sandbox";

-- SandboxesRepository.taken
SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "sandboxes" "Sandbox" WHERE (((("Sandbox"."slug" = $1))) OR ((("Sandbox"."schema_name" = $2))))) LIMIT 1;

-- SandboxesRepository.insert
INSERT INTO "sandboxes"("name", "slug", "description", "schema_name", "created_by_id", "created_at") VALUES ($1, $2, $3, $4, $5, DEFAULT) RETURNING "id", "created_at";
-- (the example ended in an error here)
