-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- BackupsRepository.create
WITH n AS (SELECT nextval(pg_get_serial_sequence('backups', 'id'))::int AS id)
INSERT INTO backups (id, client_id, kind, object_key, key_id)
SELECT id, $1::int, $2, 'clients/' || $1::int || '/backup-' || id || '.pgdump.enc', $3 FROM n
RETURNING id, client_id, kind, status, started_at, finished_at, size_bytes, sha256, error, object_key, key_id;
-- (the example ended in an error here)

-- BackupsRepository.get
SELECT id, client_id, kind, status, started_at, finished_at, size_bytes, sha256, error, object_key, key_id FROM backups WHERE id = $1;

-- BackupsRepository.list #1
SELECT id, client_id, kind, status, started_at, finished_at, size_bytes, sha256, error, object_key, key_id, count(*) OVER () AS total FROM backups WHERE client_id = $1
ORDER BY id DESC LIMIT $2 OFFSET $3;
SELECT count(*)::int AS total FROM backups WHERE client_id = $1;

-- BackupsRepository.list #2
SELECT id, client_id, kind, status, started_at, finished_at, size_bytes, sha256, error, object_key, key_id, count(*) OVER () AS total FROM backups WHERE client_id = $1
ORDER BY id DESC LIMIT $2 OFFSET $3;
SELECT count(*)::int AS total FROM backups WHERE client_id = $1;

-- BackupsRepository.claim
UPDATE backups SET status = 'RUNNING', started_at = now(), heartbeat_at = now()
WHERE id = $1 AND status = 'QUEUED' RETURNING id, client_id, kind, status, started_at, finished_at, size_bytes, sha256, error, object_key, key_id;

-- BackupsRepository.heartbeat
UPDATE backups SET heartbeat_at = now() WHERE id = $1 AND status = 'RUNNING';

-- BackupsRepository.complete
UPDATE backups SET status = 'COMPLETED', finished_at = now(), size_bytes = $2, sha256 = $3
WHERE id = $1 AND status = 'RUNNING' RETURNING id, client_id, kind, status, started_at, finished_at, size_bytes, sha256, error, object_key, key_id;

-- BackupsRepository.fail
UPDATE backups SET status = 'FAILED', finished_at = now(), error = $2
WHERE id = $1 AND status IN ('QUEUED', 'RUNNING');

-- BackupsRepository.remove
DELETE FROM backups WHERE id = $1 RETURNING id, client_id, kind, status, started_at, finished_at, size_bytes, sha256, error, object_key, key_id;

-- BackupsRepository.failAbandoned
UPDATE backups SET status = 'FAILED', finished_at = now(),
      error = 'The worker running the backup stopped before it finished'
WHERE status = 'RUNNING' AND heartbeat_at < now() - make_interval(secs => $1::float8 / 1000)
RETURNING id, client_id, kind, status, started_at, finished_at, size_bytes, sha256, error, object_key, key_id;

-- BackupsRepository.expired
SELECT id, client_id, kind, status, started_at, finished_at, size_bytes, sha256, error, object_key, key_id FROM backups b
WHERE status IN ('COMPLETED', 'FAILED') AND created_at < now() - make_interval(days => $1)
  AND id <> COALESCE((SELECT max(id) FROM backups n WHERE n.client_id = b.client_id
                       AND n.status = 'COMPLETED'), 0);

-- BackupsRepository.clientsByOldestBackup
SELECT c.id FROM clients c LEFT JOIN backups b ON b.client_id = c.id
WHERE c.status = 'ACTIVE' GROUP BY c.id ORDER BY max(b.created_at) ASC NULLS FIRST, c.id;

-- BackupsRepository.oldestNewestCompletedAge
SELECT max(extract(epoch FROM now() - COALESCE(newest, c.provisioned_at, c.created_at)))::float8 AS age
 FROM clients c
 LEFT JOIN LATERAL (SELECT max(finished_at) AS newest FROM backups b
                     WHERE b.client_id = c.id AND b.status = 'COMPLETED') n ON true
WHERE c.status = 'ACTIVE';
