-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- FirstAdminsRepository.lockMasterSeed: not run (waits on an advisory lock held by another replica starting)

-- FirstAdminsRepository.superAdminExists
SELECT 1 FROM public.users u JOIN public.roles r ON r.id = u.role_id WHERE r.type = 'SUPER_ADMIN' LIMIT 1;

-- FirstAdminsRepository.insertSuperAdmin
INSERT INTO public.users (email, username, first_name, last_name, password_hash, role_id, company_id, confirmed)
VALUES ($1, $1, 'Platform', 'Administrator', $2, $3, $4, true);

-- FirstAdminsRepository.userIdByEmail
SELECT id FROM public.users WHERE lower(email) = lower($1);

-- FirstAdminsRepository.insertConfirmedUser
INSERT INTO public.users (email, username, role_id, company_id, confirmed)
VALUES ($1, $1, $2, $3, true) RETURNING id;
