-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- ApiTokensRepository.list
SELECT "ApiToken"."id" AS "ApiToken_id", "ApiToken"."name" AS "ApiToken_name", "ApiToken"."description" AS "ApiToken_description", "ApiToken"."token_preview" AS "ApiToken_token_preview", "ApiToken"."created_by_id" AS "ApiToken_created_by_id", "ApiToken"."company_id" AS "ApiToken_company_id", "ApiToken"."is_full_access" AS "ApiToken_is_full_access", "ApiToken"."permissions" AS "ApiToken_permissions", "ApiToken"."expires_at" AS "ApiToken_expires_at", "ApiToken"."revoked_at" AS "ApiToken_revoked_at", "ApiToken"."last_used_at" AS "ApiToken_last_used_at", "ApiToken"."created_at" AS "ApiToken_created_at" FROM "api_tokens" "ApiToken" ORDER BY "ApiToken"."id" ASC;

-- ApiTokensRepository.insert
INSERT INTO "api_tokens"("name", "description", "token_hash", "token_preview", "created_by_id", "company_id", "is_full_access", "permissions", "expires_at", "revoked_at", "last_used_at", "created_at") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, DEFAULT, DEFAULT, DEFAULT) RETURNING "id", "is_full_access", "permissions", "created_at";

-- ApiTokensRepository.lockWithHash
SELECT "t"."id" AS "t_id", "t"."name" AS "t_name", "t"."description" AS "t_description", "t"."token_preview" AS "t_token_preview", "t"."created_by_id" AS "t_created_by_id", "t"."company_id" AS "t_company_id", "t"."is_full_access" AS "t_is_full_access", "t"."permissions" AS "t_permissions", "t"."expires_at" AS "t_expires_at", "t"."revoked_at" AS "t_revoked_at", "t"."last_used_at" AS "t_last_used_at", "t"."created_at" AS "t_created_at", "t"."token_hash" AS "t_token_hash" FROM "api_tokens" "t" WHERE "t"."id" = $1 FOR UPDATE;

-- ApiTokensRepository.markRevoked
UPDATE "api_tokens" SET "revoked_at" = $1 WHERE "id" IN ($2);

-- ApiTokensRepository.findCredential
SELECT id, name, created_by_id, is_full_access, permissions, expires_at, revoked_at
FROM public.api_tokens WHERE token_hash = $1;

-- ApiTokensRepository.touchLastUsed
UPDATE public.api_tokens t SET last_used_at = GREATEST(coalesce(t.last_used_at, u.at), u.at)
FROM unnest($1::int[], $2::timestamptz[]) AS u(id, at) WHERE t.id = u.id;
