-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- DeliveriesRepository.listOf
SELECT id, webhook_id, event_type, event_id, status, attempt_count, max_attempts, response_status,
error_message, duration_ms, next_attempt_at, completed_at, created_at FROM public.webhook_deliveries WHERE webhook_id = $1 ORDER BY id DESC LIMIT $2;

-- DeliveriesRepository.find
SELECT id, webhook_id, event_type, event_id, status, attempt_count, max_attempts, response_status,
error_message, duration_ms, next_attempt_at, completed_at, created_at FROM public.webhook_deliveries WHERE id = $1;

-- DeliveriesRepository.retry
UPDATE public.webhook_deliveries
          SET status = 'PENDING', max_attempts = attempt_count + 1, next_attempt_at = clock_timestamp(),
              completed_at = NULL, updated_at = clock_timestamp()
        WHERE id = $1 AND status = 'FAILED' RETURNING id, webhook_id, event_type, event_id, status, attempt_count, max_attempts, response_status,
error_message, duration_ms, next_attempt_at, completed_at, created_at;

-- DeliveriesRepository.insertPing
INSERT INTO public.webhook_deliveries (webhook_id, event_id, event_type, payload, is_test, max_attempts, next_attempt_at)
VALUES ($1, $2, 'webhook.ping', $3, true, 1, NULL) RETURNING id;
-- (the example ended in an error here)

-- DeliveriesRepository.insertForEvents
INSERT INTO public.webhook_deliveries (webhook_id, event_id, event_type, payload, max_attempts, next_attempt_at)
SELECT w.id, x.e, x.t, x.h || w.id || x.tl, w.max_retries + 1, clock_timestamp()
  FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[]) WITH ORDINALITY AS x(e, t, c, h, tl, n)
  JOIN public.webhooks w
    ON w.is_active
   AND (x.t = ANY (w.events) OR '*' = ANY (w.events))
   AND (w.company_id IS NULL OR w.company_id = x.c)
 ORDER BY x.n, w.id
RETURNING id, webhook_id;

-- DeliveriesRepository.startAttempts
UPDATE public.webhook_deliveries d SET attempt_count = d.attempt_count + 1, updated_at = clock_timestamp()
 FROM public.webhooks w
WHERE d.id = ANY($1::bigint[]) AND w.id = d.webhook_id AND d.status IN ('PENDING', 'RETRYING')
  AND (w.is_active OR d.is_test)
RETURNING d.id, d.webhook_id, d.event_id, d.event_type, d.payload, d.is_test, d.attempt_count, d.max_attempts,
          w.url, w.http_method, w.content_type, w.custom_headers, w.timeout_ms, w.verify_ssl,
          w.secret_encrypted, w.consecutive_failures, w.last_delivery_at;

-- DeliveriesRepository.succeeded
UPDATE public.webhook_deliveries d
  SET status = 'SUCCESS', response_status = x.status,
      error_message = NULL, duration_ms = x.duration_ms, next_attempt_at = NULL,
      completed_at = clock_timestamp(), updated_at = clock_timestamp()
 FROM unnest($1::bigint[], $2::int[], $3::int[]) AS x(id, status, duration_ms)
WHERE d.id = x.id;

-- DeliveriesRepository.failDisabled
UPDATE public.webhook_deliveries d
  SET status = 'FAILED', error_message = 'Webhook is disabled', next_attempt_at = NULL,
      completed_at = clock_timestamp(), updated_at = clock_timestamp()
 FROM public.webhooks w
WHERE d.id = $1 AND w.id = d.webhook_id AND d.status IN ('PENDING', 'RETRYING')
  AND NOT w.is_active AND NOT d.is_test
RETURNING d.id;

-- DeliveriesRepository.retrying
UPDATE public.webhook_deliveries
  SET status = 'RETRYING', response_status = $2, error_message = $3, duration_ms = $4,
      next_attempt_at = clock_timestamp() + make_interval(secs => $5::float8 / 1000), updated_at = clock_timestamp()
WHERE id = $1;

-- DeliveriesRepository.failed
UPDATE public.webhook_deliveries
  SET status = 'FAILED', response_status = $2, error_message = $3, duration_ms = $4,
      next_attempt_at = NULL, completed_at = clock_timestamp(), updated_at = clock_timestamp()
WHERE id = $1;

-- DeliveriesRepository.overdue
SELECT id, webhook_id FROM public.webhook_deliveries
WHERE status IN ('PENDING', 'RETRYING')
  AND next_attempt_at <= clock_timestamp() - make_interval(secs => $1::float8 / 1000)
ORDER BY next_attempt_at LIMIT 1000;

-- DeliveriesRepository.anyPending
SELECT 1 FROM public.webhook_deliveries WHERE status IN ('PENDING', 'RETRYING') LIMIT 1;

-- DeliveriesRepository.purgeBatch
DELETE FROM public.webhook_deliveries WHERE id IN (
SELECT id FROM public.webhook_deliveries
 WHERE created_at < now() - make_interval(days => $1) LIMIT 5000);

-- DeliveriesRepository.activity
SELECT (SELECT max(created_at) FROM public.webhook_deliveries WHERE status IN ('PENDING', 'RETRYING')) AS pending,
(SELECT max(created_at) FROM public.webhook_deliveries) AS newest;
