-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- SsoUsersRepository.findLinked
SELECT u.deleted_at, u.id, u.email, u.username, u.first_name, u.last_name, u.company_id, u.blocked,
     u.confirmed, u.two_factor_enabled, u.token_version, r.id AS role_id, r.name AS role_name, r.type AS role_type
FROM public.users u JOIN public.roles r ON r.id = u.role_id JOIN sso_identities i ON i.user_id = u.id
      WHERE i.provider_id = $1 AND i.subject = $2;

-- SsoUsersRepository.findByEmail
SELECT u.id, u.email, u.username, u.first_name, u.last_name, u.company_id, u.blocked,
     u.confirmed, u.two_factor_enabled, u.token_version, r.id AS role_id, r.name AS role_name, r.type AS role_type
FROM public.users u JOIN public.roles r ON r.id = u.role_id WHERE lower(u.email) = $1 AND u.deleted_at IS NULL;

-- SsoUsersRepository.findActive
SELECT u.id, u.email, u.username, u.first_name, u.last_name, u.company_id, u.blocked,
     u.confirmed, u.two_factor_enabled, u.token_version, r.id AS role_id, r.name AS role_name, r.type AS role_type
FROM public.users u JOIN public.roles r ON r.id = u.role_id WHERE u.id = $1 AND u.deleted_at IS NULL;

-- SsoUsersRepository.insert
INSERT INTO public.users (email, first_name, last_name, phone_number, profile_id, role_id, company_id, confirmed)
VALUES ($1, $2, $3, $4, $5, $6, $7, true) RETURNING id;
SELECT u.id, u.email, u.username, u.first_name, u.last_name, u.company_id, u.blocked,
     u.confirmed, u.two_factor_enabled, u.token_version, r.id AS role_id, r.name AS role_name, r.type AS role_type
FROM public.users u JOIN public.roles r ON r.id = u.role_id WHERE u.id = $1;
