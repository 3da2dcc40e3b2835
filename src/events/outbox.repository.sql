-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- OutboxRepository.insert
-- (no statement)

-- OutboxRepository.take
DELETE FROM public.event_outbox
WHERE id IN (SELECT id FROM public.event_outbox ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
RETURNING *, extract(epoch FROM clock_timestamp() - occurred_at)::float8 AS lag_seconds;

-- OutboxRepository.oldest
SELECT occurred_at FROM public.event_outbox ORDER BY id LIMIT 1;
