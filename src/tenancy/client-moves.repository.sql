-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- ClientMovesRepository.insert
INSERT INTO client_moves (job_id, client_id, identifier, from_server_id, to_server_id, mode, status, step)
VALUES ($1, $2, $3, $4, $5, $6, 'queued', 'queued');

-- ClientMovesRepository.byId
SELECT job_id AS "jobId", client_id AS "clientId", identifier, from_server_id AS "fromServerId",
to_server_id AS "toServerId", mode, status, step, error, warning, waiting_for AS "waitingFor",
lag_bytes::float8 AS "lagBytes", target_database AS "targetDatabase", target_created AS "targetCreated",
source, paused_at AS "pausedAt", pause_ms AS "pauseMs", source_drop_at AS "sourceDropAt",
started_at AS "startedAt", finished_at AS "finishedAt", updated_at AS "updatedAt" FROM client_moves WHERE job_id = $1;

-- ClientMovesRepository.saveProgress
UPDATE client_moves SET status = $2, step = $3, error = $4, warning = $5, waiting_for = $6,
  lag_bytes = $7, target_database = $8, target_created = $9, source = $10, paused_at = $11,
  pause_ms = $12, source_drop_at = $13, finished_at = $14, updated_at = now()
WHERE job_id = $1;

-- ClientMovesRepository.openFor
SELECT 1 FROM client_moves WHERE client_id = $1 AND status IN ('queued', 'running');

-- ClientMovesRepository.abandoned
SELECT m.job_id AS "jobId" FROM client_moves m
WHERE (m.status = 'running' AND m.updated_at < now() - make_interval(secs => $1::float8 / 1000)
    OR m.status = 'queued' AND m.updated_at < now() - make_interval(secs => $2::float8 / 1000))
  AND NOT EXISTS (SELECT 1 FROM client_leases l WHERE l.client_id = m.client_id AND l.expires_at > now());
