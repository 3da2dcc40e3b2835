-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- SandboxGrantsRepository.reachable
SELECT 1 FROM public.sandboxes s
WHERE s.schema_name = $2
  AND (s.created_by_id = $1
       OR EXISTS (SELECT 1 FROM public.user_sandboxes us WHERE us.sandbox_id = s.id AND us.user_id = $1));

-- SandboxGrantsRepository.findBySchema
SELECT "Sandbox"."id" AS "Sandbox_id", "Sandbox"."name" AS "Sandbox_name", "Sandbox"."slug" AS "Sandbox_slug", "Sandbox"."description" AS "Sandbox_description", "Sandbox"."schema_name" AS "Sandbox_schema_name", "Sandbox"."created_by_id" AS "Sandbox_created_by_id", "Sandbox"."created_at" AS "Sandbox_created_at" FROM "sandboxes" "Sandbox" WHERE (("Sandbox"."schema_name" = $1)) LIMIT 1;

-- SandboxGrantsRepository.existingSandboxIds
SELECT id FROM public.sandboxes WHERE id = ANY($1);

-- SandboxGrantsRepository.grantedTo
SELECT sandbox_id FROM public.user_sandboxes WHERE user_id = $1 ORDER BY sandbox_id;

-- SandboxGrantsRepository.replace
DELETE FROM public.user_sandboxes WHERE user_id = $1;
INSERT INTO public.user_sandboxes (user_id, sandbox_id) SELECT $1, unnest($2::int[]);
