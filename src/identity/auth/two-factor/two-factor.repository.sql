-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- TwoFactorRepository.findWithSecrets #1
SELECT "u"."id" AS "u_id", "u"."email" AS "u_email", "u"."username" AS "u_username", "u"."phone_number" AS "u_phone_number", "u"."profile_id" AS "u_profile_id", "u"."first_name" AS "u_first_name", "u"."last_name" AS "u_last_name", "u"."role_id" AS "u_role_id", "u"."company_id" AS "u_company_id", "u"."blocked" AS "u_blocked", "u"."confirmed" AS "u_confirmed", "u"."deleted_at" AS "u_deleted_at", "u"."password_changed_at" AS "u_password_changed_at", "u"."token_version" AS "u_token_version", "u"."failed_login_count" AS "u_failed_login_count", "u"."locked_until" AS "u_locked_until", "u"."reset_token_expires_at" AS "u_reset_token_expires_at", "u"."two_factor_enabled" AS "u_two_factor_enabled", "u"."created_at" AS "u_created_at", "u"."updated_at" AS "u_updated_at", "u"."two_factor_secret" AS "u_two_factor_secret", "u"."two_factor_pending_secret" AS "u_two_factor_pending_secret", "role"."id" AS "role_id", "role"."name" AS "role_name", "role"."type" AS "role_type", "role"."description" AS "role_description", "role"."permissions" AS "role_permissions", "role"."created_at" AS "role_created_at", "role"."updated_at" AS "role_updated_at" FROM "users" "u" INNER JOIN "roles" "role" ON "role"."id"="u"."role_id" WHERE "u"."id" = $1 AND "u"."deleted_at" IS NULL;

-- TwoFactorRepository.findWithSecrets #2
SELECT "u"."id" AS "u_id", "u"."email" AS "u_email", "u"."username" AS "u_username", "u"."phone_number" AS "u_phone_number", "u"."profile_id" AS "u_profile_id", "u"."first_name" AS "u_first_name", "u"."last_name" AS "u_last_name", "u"."role_id" AS "u_role_id", "u"."company_id" AS "u_company_id", "u"."blocked" AS "u_blocked", "u"."confirmed" AS "u_confirmed", "u"."deleted_at" AS "u_deleted_at", "u"."password_changed_at" AS "u_password_changed_at", "u"."token_version" AS "u_token_version", "u"."failed_login_count" AS "u_failed_login_count", "u"."locked_until" AS "u_locked_until", "u"."reset_token_expires_at" AS "u_reset_token_expires_at", "u"."two_factor_enabled" AS "u_two_factor_enabled", "u"."created_at" AS "u_created_at", "u"."updated_at" AS "u_updated_at", "u"."two_factor_secret" AS "u_two_factor_secret", "u"."two_factor_pending_secret" AS "u_two_factor_pending_secret", "role"."id" AS "role_id", "role"."name" AS "role_name", "role"."type" AS "role_type", "role"."description" AS "role_description", "role"."permissions" AS "role_permissions", "role"."created_at" AS "role_created_at", "role"."updated_at" AS "role_updated_at" FROM "users" "u" INNER JOIN "roles" "role" ON "role"."id"="u"."role_id" WHERE "u"."id" = $1 AND "u"."deleted_at" IS NULL FOR UPDATE OF u;

-- TwoFactorRepository.startEnrolment
UPDATE public.users SET two_factor_pending_secret = $2, two_factor_pending_recovery_hashes = $3
WHERE id = $1;

-- TwoFactorRepository.completeEnrolment
UPDATE public.users
  SET two_factor_enabled = true, two_factor_secret = two_factor_pending_secret,
      two_factor_recovery_hashes = two_factor_pending_recovery_hashes,
      two_factor_pending_secret = NULL, two_factor_pending_recovery_hashes = '{}',
      two_factor_last_step = $2, updated_at = now()
WHERE id = $1;

-- TwoFactorRepository.disable
UPDATE public.users
  SET two_factor_enabled = false, two_factor_secret = NULL, two_factor_recovery_hashes = '{}',
      two_factor_pending_secret = NULL, two_factor_pending_recovery_hashes = '{}',
      two_factor_last_step = NULL, updated_at = now()
WHERE id = $1;

-- TwoFactorRepository.acceptStep
UPDATE public.users SET two_factor_last_step = $2
WHERE id = $1 AND (two_factor_last_step IS NULL OR two_factor_last_step < $2) RETURNING id;

-- TwoFactorRepository.useRecoveryCode
UPDATE public.users SET two_factor_recovery_hashes = array_remove(two_factor_recovery_hashes, $2)
WHERE id = $1 AND $2 = ANY(two_factor_recovery_hashes) RETURNING id;
