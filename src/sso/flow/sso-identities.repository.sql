-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- SsoIdentitiesRepository.ownerOf
SELECT user_id FROM sso_identities WHERE provider_id = $1 AND subject = $2;

-- SsoIdentitiesRepository.userHasLink
SELECT subject FROM sso_identities WHERE provider_id = $1 AND user_id = $2;

-- SsoIdentitiesRepository.insert: not run (a link needs an identity provider row, and the database the script runs on has none)

-- SsoIdentitiesRepository.recordLogin
UPDATE sso_identities SET last_login_at = now(), email = coalesce($3, email), session_index = $4
WHERE provider_id = $1 AND subject = $2;

-- SsoIdentitiesRepository.listOfUser
SELECT i.provider_id, p.name, p.display_name, p.provider_type, i.subject, i.email, i.linked_at, i.last_login_at
 FROM sso_identities i JOIN identity_providers p ON p.id = i.provider_id
WHERE i.user_id = $1 ORDER BY i.linked_at;

-- SsoIdentitiesRepository.sessionOf
SELECT subject, session_index FROM sso_identities WHERE user_id = $1 AND provider_id = $2;

-- SsoIdentitiesRepository.unlink
DELETE FROM sso_identities WHERE user_id = $1 AND provider_id = $2 RETURNING subject;
