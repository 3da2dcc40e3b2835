-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- ClientLeasesRepository.take
INSERT INTO client_leases (client_id, holder, purpose, expires_at)
VALUES ($1, $2, $3, now() + make_interval(secs => $4::float8 / 1000))
ON CONFLICT (client_id) DO UPDATE
  SET holder = EXCLUDED.holder, purpose = EXCLUDED.purpose, expires_at = EXCLUDED.expires_at
  WHERE client_leases.expires_at < now() OR client_leases.holder = EXCLUDED.holder
RETURNING client_id;

-- ClientLeasesRepository.renew
UPDATE client_leases SET expires_at = now() + make_interval(secs => $3::float8 / 1000)
WHERE client_id = $1 AND holder = $2;

-- ClientLeasesRepository.release
DELETE FROM client_leases WHERE client_id = $1 AND holder = $2;
