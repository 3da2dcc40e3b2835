-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- AuthStateRepository.load
SELECT u.id, u.email, u.username, u.company_id, u.blocked, u.deleted_at, u.confirmed, u.token_version,
      r.id AS role_id, r.type, r.permissions
 FROM public.users u JOIN public.roles r ON r.id = u.role_id
WHERE u.id = $1;
