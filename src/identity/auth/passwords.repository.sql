-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- PasswordsRepository.findWithHash
SELECT "u"."id" AS "u_id", "u"."email" AS "u_email", "u"."username" AS "u_username", "u"."phone_number" AS "u_phone_number", "u"."profile_id" AS "u_profile_id", "u"."first_name" AS "u_first_name", "u"."last_name" AS "u_last_name", "u"."role_id" AS "u_role_id", "u"."company_id" AS "u_company_id", "u"."blocked" AS "u_blocked", "u"."confirmed" AS "u_confirmed", "u"."deleted_at" AS "u_deleted_at", "u"."password_changed_at" AS "u_password_changed_at", "u"."token_version" AS "u_token_version", "u"."failed_login_count" AS "u_failed_login_count", "u"."locked_until" AS "u_locked_until", "u"."reset_token_expires_at" AS "u_reset_token_expires_at", "u"."two_factor_enabled" AS "u_two_factor_enabled", "u"."created_at" AS "u_created_at", "u"."updated_at" AS "u_updated_at", "u"."password_hash" AS "u_password_hash" FROM "users" "u" WHERE "u"."id" = $1;

-- PasswordsRepository.change
UPDATE public.users SET password_hash = $2, password_changed_at = now(),
      token_version = token_version + 1, updated_at = now()
WHERE id = $1;

-- PasswordsRepository.setResetCode
UPDATE public.users SET reset_token_hash = $2, reset_token_expires_at = $3 WHERE id = $1;

-- PasswordsRepository.findResettable
SELECT id, email FROM public.users
WHERE lower(email) = $1 AND deleted_at IS NULL AND confirmed AND NOT blocked;

-- PasswordsRepository.codeHeld
SELECT id FROM public.users
WHERE reset_token_hash = $1 AND reset_token_expires_at > now() AND deleted_at IS NULL;

-- PasswordsRepository.resetWithCode
UPDATE public.users
  SET password_hash = $2, password_changed_at = now(), token_version = token_version + 1,
      reset_token_hash = NULL, reset_token_expires_at = NULL, confirmed = true,
      blocked = CASE WHEN confirmed THEN blocked ELSE false END,
      failed_login_count = 0, locked_until = NULL, updated_at = now()
WHERE reset_token_hash = $1 AND reset_token_expires_at > now() AND deleted_at IS NULL
RETURNING id, email;
