-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- LoginLocksRepository.addressLock
SELECT locked_at, locked_until, last_success_at FROM public.login_addresses
WHERE user_id = $1 AND address = $2;

-- LoginLocksRepository.recordAddressFailure
INSERT INTO public.login_addresses (user_id, address)
SELECT id, $2 FROM public.users WHERE id = $1
ON CONFLICT (user_id, address) DO NOTHING;
WITH current AS (
  SELECT CASE WHEN (a.locked_until <= now() OR a.locked_at <= u.password_changed_at) THEN 1 ELSE a.failed_count + 1 END AS count,
         (a.locked_until <= now() OR a.locked_at <= u.password_changed_at) AS ended
    FROM public.login_addresses a JOIN public.users u ON u.id = a.user_id
   WHERE a.user_id = $1 AND a.address = $2 FOR UPDATE OF a
)
UPDATE public.login_addresses a
   SET failed_count = current.count,
       locked_at = CASE WHEN current.count >= $3 THEN now() WHEN current.ended THEN NULL ELSE a.locked_at END,
       locked_until = CASE WHEN current.count >= $3 THEN now() + make_interval(secs => $4)
                           WHEN current.ended THEN NULL ELSE a.locked_until END
  FROM current
 WHERE a.user_id = $1 AND a.address = $2
 RETURNING current.count >= $3 AS locked;

-- LoginLocksRepository.recordAccountFailure
WITH current AS (
  SELECT CASE WHEN locked_until IS NOT NULL AND locked_until <= now() THEN 1
              ELSE failed_login_count + 1 END AS count
    FROM public.users WHERE id = $1 FOR UPDATE
)
UPDATE public.users u
   SET failed_login_count = current.count,
       locked_until = CASE WHEN current.count >= $2 THEN now() + make_interval(secs => $3)
                           WHEN u.locked_until <= now() THEN NULL ELSE u.locked_until END
  FROM current
 WHERE u.id = $1
 RETURNING current.count >= $2 AS locked;

-- LoginLocksRepository.recordSuccess
INSERT INTO public.login_addresses AS a (user_id, address, last_success_at) VALUES ($1, $2, now())
ON CONFLICT (user_id, address) DO UPDATE
   SET failed_count = 0, locked_at = NULL, locked_until = NULL, last_success_at = now();
UPDATE public.users SET failed_login_count = 0, locked_until = NULL
WHERE id = $1 AND (locked_until IS NULL OR locked_until <= now())
  AND (failed_login_count <> 0 OR locked_until IS NOT NULL);

-- LoginLocksRepository.clearFailures
UPDATE public.users SET failed_login_count = 0, locked_until = NULL
WHERE id = $1 AND (failed_login_count <> 0 OR locked_until IS NOT NULL);
UPDATE public.login_addresses SET failed_count = 0, locked_at = NULL, locked_until = NULL
WHERE user_id = $1 AND (failed_count <> 0 OR locked_until IS NOT NULL);
