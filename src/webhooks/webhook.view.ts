import { WebhookDto } from './dto/webhook.dto';

export interface WebhookRow {
  id: number;
  name: string;
  description: string | null;
  url: string;
  company_id: number | null;
  events: string[];
  custom_headers: Record<string, string>;
  http_method: string;
  content_type: string;
  timeout_ms: number;
  max_retries: number;
  verify_ssl: boolean;
  auto_disable_after_failures: number;
  is_active: boolean;
  consecutive_failures: number;
  disabled_reason: string | null;
  secret_encrypted: string;
  secret_preview: string;
  last_delivery_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const WEBHOOK_COLUMNS = `id, name, description, url, company_id, events, custom_headers, http_method, content_type,
  timeout_ms, max_retries, verify_ssl, auto_disable_after_failures, is_active, consecutive_failures, disabled_reason,
  secret_encrypted, secret_preview, last_delivery_at, created_at, updated_at`;

/** The API view of a webhook: never the secret, only hasSecret and secretPreview. */
export function toWebhookView(r: WebhookRow): WebhookDto {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    url: r.url,
    companyId: r.company_id,
    events: r.events,
    customHeaders: r.custom_headers,
    httpMethod: r.http_method,
    contentType: r.content_type,
    timeoutMs: r.timeout_ms,
    maxRetries: r.max_retries,
    verifySsl: r.verify_ssl,
    autoDisableAfterFailures: r.auto_disable_after_failures,
    isActive: r.is_active,
    consecutiveFailures: r.consecutive_failures,
    disabledReason: r.disabled_reason,
    hasSecret: !!r.secret_encrypted,
    secretPreview: r.secret_preview,
    lastDeliveryAt: r.last_delivery_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Audit form of a webhook: header values masked (they often carry credentials). */
export function auditForm(view: WebhookDto): Record<string, unknown> {
  const headers = Object.fromEntries(Object.keys(view.customHeaders ?? {}).map((k) => [k, '***']));
  return { ...view, customHeaders: headers, consecutiveFailures: undefined, lastDeliveryAt: undefined };
}
