-- The SQL this repository sends, one block per example of each method (see @SqlExample).
-- Written by `npm run sql:write`; the test suite fails when it differs from what the code sends.

-- WebhooksRepository.listOfCompany
SELECT id, name, description, url, company_id, events, custom_headers, http_method, content_type,
timeout_ms, max_retries, verify_ssl, auto_disable_after_failures, is_active, consecutive_failures, disabled_reason,
secret_encrypted, secret_preview, last_delivery_at, created_at, updated_at FROM public.webhooks WHERE company_id = $1 ORDER BY id;

-- WebhooksRepository.find #1
SELECT id, name, description, url, company_id, events, custom_headers, http_method, content_type,
timeout_ms, max_retries, verify_ssl, auto_disable_after_failures, is_active, consecutive_failures, disabled_reason,
secret_encrypted, secret_preview, last_delivery_at, created_at, updated_at FROM public.webhooks WHERE id = $1;

-- WebhooksRepository.find #2
SELECT id, name, description, url, company_id, events, custom_headers, http_method, content_type,
timeout_ms, max_retries, verify_ssl, auto_disable_after_failures, is_active, consecutive_failures, disabled_reason,
secret_encrypted, secret_preview, last_delivery_at, created_at, updated_at FROM public.webhooks WHERE id = $1 FOR UPDATE;

-- WebhooksRepository.insert
INSERT INTO public.webhooks (name, description, url, company_id, events, custom_headers, http_method, content_type,
              timeout_ms, max_retries, verify_ssl, auto_disable_after_failures, secret_encrypted, secret_preview, created_by_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id, name, description, url, company_id, events, custom_headers, http_method, content_type,
timeout_ms, max_retries, verify_ssl, auto_disable_after_failures, is_active, consecutive_failures, disabled_reason,
secret_encrypted, secret_preview, last_delivery_at, created_at, updated_at;
-- (the example ended in an error here)

-- WebhooksRepository.update
UPDATE public.webhooks SET name = $2, events = $3, updated_at = now() WHERE id = $1 RETURNING id, name, description, url, company_id, events, custom_headers, http_method, content_type,
timeout_ms, max_retries, verify_ssl, auto_disable_after_failures, is_active, consecutive_failures, disabled_reason,
secret_encrypted, secret_preview, last_delivery_at, created_at, updated_at;

-- WebhooksRepository.setActive
UPDATE public.webhooks
          SET is_active = $2, updated_at = now(),
              consecutive_failures = CASE WHEN $2 THEN 0 ELSE consecutive_failures END,
              disabled_reason = CASE WHEN $2 THEN NULL ELSE 'Disabled by an administrator' END
        WHERE id = $1 RETURNING id, name, description, url, company_id, events, custom_headers, http_method, content_type,
timeout_ms, max_retries, verify_ssl, auto_disable_after_failures, is_active, consecutive_failures, disabled_reason,
secret_encrypted, secret_preview, last_delivery_at, created_at, updated_at;

-- WebhooksRepository.setSecret
UPDATE public.webhooks SET secret_encrypted = $2, secret_preview = $3, updated_at = now()
        WHERE id = $1 RETURNING id, name, description, url, company_id, events, custom_headers, http_method, content_type,
timeout_ms, max_retries, verify_ssl, auto_disable_after_failures, is_active, consecutive_failures, disabled_reason,
secret_encrypted, secret_preview, last_delivery_at, created_at, updated_at;

-- WebhooksRepository.delete
DELETE FROM public.webhooks WHERE id = $1;

-- WebhooksRepository.companyExists
SELECT id FROM public.companies WHERE id = $1;

-- WebhooksRepository.countInGroupLocked #1
SELECT pg_advisory_xact_lock($1, $2);
SELECT count(*)::int AS count FROM public.webhooks WHERE company_id IS NOT DISTINCT FROM $1;

-- WebhooksRepository.countInGroupLocked #2
SELECT pg_advisory_xact_lock($1, $2);
SELECT count(*)::int AS count FROM public.webhooks WHERE company_id IS NOT DISTINCT FROM $1;

-- WebhooksRepository.markDelivered
UPDATE public.webhooks SET consecutive_failures = 0, last_delivery_at = now() WHERE id = $1;

-- WebhooksRepository.countFailure
UPDATE public.webhooks w
  SET consecutive_failures = w.consecutive_failures + 1, last_delivery_at = now(),
      is_active = w.is_active AND NOT (w.auto_disable_after_failures > 0
                  AND w.consecutive_failures + 1 >= w.auto_disable_after_failures),
      disabled_reason = CASE WHEN w.is_active AND w.auto_disable_after_failures > 0
                  AND w.consecutive_failures + 1 >= w.auto_disable_after_failures
                  THEN 'Disabled after ' || (w.consecutive_failures + 1) || ' consecutive failures'
                  ELSE w.disabled_reason END
WHERE w.id = $1
RETURNING w.is_active;
