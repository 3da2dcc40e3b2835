-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- RegistrationsRepository.lockCreation: not run (waits on the advisory lock of user creation)

-- RegistrationsRepository.countSeated
SELECT count(*)::int AS n FROM public.users WHERE deleted_at IS NULL AND confirmed;

-- RegistrationsRepository.discardPending
DELETE FROM public.users
WHERE confirmed = false AND deleted_at IS NULL AND (lower(email) = ANY($1) OR lower(username) = ANY($1))
RETURNING id, email;

-- RegistrationsRepository.purgeExpired
DELETE FROM public.users WHERE confirmed = false AND deleted_at IS NULL AND confirmation_expires_at <= now();

-- RegistrationsRepository.findOwner
SELECT id, email FROM public.users WHERE lower(email) = $1 OR lower(username) = $1;

-- RegistrationsRepository.insertPending
INSERT INTO public.users (email, username, first_name, last_name, password_hash, role_id, company_id,
                          blocked, confirmed, confirmation_token_hash, confirmation_expires_at)
VALUES ($1, $1, $2, $3, $4, $5, $6, true, false, $7, now() + make_interval(hours => $8))
RETURNING id, email, first_name AS "firstName", last_name AS "lastName", company_id AS "companyId";

-- RegistrationsRepository.findPendingByToken
SELECT id FROM public.users
WHERE confirmation_token_hash = $1 AND confirmation_expires_at > now() AND deleted_at IS NULL;

-- RegistrationsRepository.confirm
UPDATE public.users
  SET confirmed = true, blocked = false, confirmation_token_hash = NULL,
      confirmation_expires_at = NULL, updated_at = now()
WHERE id = $1 AND confirmation_token_hash = $2 AND confirmation_expires_at > now()
RETURNING id, email;
