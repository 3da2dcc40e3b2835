-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- RefreshTokensRepository.insert
INSERT INTO public.refresh_tokens (user_id, token_hash, family_id, expires_at) VALUES ($1, $2, $3, $4);

-- RefreshTokensRepository.lockByHash
SELECT id, user_id, family_id, expires_at, revoked_at, rotated_at
FROM public.refresh_tokens WHERE token_hash = $1 FOR UPDATE;

-- RefreshTokensRepository.lockHolder
SELECT t.user_id, u.email FROM public.refresh_tokens t JOIN public.users u ON u.id = t.user_id
WHERE t.token_hash = $1 AND t.revoked_at IS NULL
FOR UPDATE OF u;

-- RefreshTokensRepository.markRotated
UPDATE public.refresh_tokens SET rotated_at = now() WHERE id = $1;

-- RefreshTokensRepository.revokeFamily
UPDATE public.refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL;

-- RefreshTokensRepository.revokeAllOfUser
UPDATE public.refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL;
