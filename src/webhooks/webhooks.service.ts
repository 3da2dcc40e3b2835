import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuditWriter, diffChanges } from '../audit-trail/audit-writer';
import { Principal } from '../access/principal';
import { SecretBox } from '../common/crypto/secret-box';
import { AppError } from '../common/errors/app-error';
import { TenantDatabase } from '../tenancy/tenant-database';
import { CreateWebhookDto, UpdateWebhookDto } from './dto/webhook.dto';
import { EVENT_TYPES } from './event-catalogue';
import { refuseTarget } from '../outbound/address-guard';
import { headerProblems, MAX_WEBHOOKS_PER_COMPANY } from './webhook-rules';
import { generateSecret, previewSecret } from './webhook-signing';
import { auditForm, toWebhookView, WebhookRow } from './webhook.view';
import { WebhooksRepository } from './webhooks.repository';
import { WebhookSettings } from './webhook.settings';

const SECRET_MESSAGE = 'Save this secret now: it is shown only once and is needed to verify signatures.';
const LIMIT_LOCK = 7243100;

const COLUMN_OF: Record<string, string> = {
  name: 'name',
  description: 'description',
  url: 'url',
  companyId: 'company_id',
  events: 'events',
  customHeaders: 'custom_headers',
  httpMethod: 'http_method',
  contentType: 'content_type',
  timeoutMs: 'timeout_ms',
  maxRetries: 'max_retries',
  verifySsl: 'verify_ssl',
  autoDisableAfterFailures: 'auto_disable_after_failures',
};

const NULLABLE = ['description', 'companyId', 'events', 'customHeaders'];

function columnValue(field: string, value: unknown): unknown {
  if (field === 'customHeaders') return JSON.stringify(value ?? {});
  if (field === 'events') return [...new Set((value as string[] | null) ?? [])];
  return value;
}

/** Webhook configuration of the current client database (section 4 administration). */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly audit: AuditWriter,
    private readonly secrets: SecretBox,
    private readonly settings: WebhookSettings,
    private readonly webhooks: WebhooksRepository,
  ) {}

  eventTypes() {
    return { data: EVENT_TYPES };
  }

  async listForCompany(companyId: number) {
    const rows = await this.webhooks.listOfCompany(companyId);
    return { data: rows.map(toWebhookView) };
  }

  async get(id: number) {
    return { data: toWebhookView(await this.db.run((m) => this.find(m, id))) };
  }

  async create(principal: Principal, dto: CreateWebhookDto) {
    await this.checkInput(dto);
    const secret = generateSecret();
    const row = await this.db.transaction(async (m) => {
      const companyId = dto.companyId ?? null;
      await this.checkCompany(m, companyId);
      const created = await this.webhooks.insert(m, {
        name: dto.name,
        description: dto.description ?? null,
        url: dto.url,
        company_id: companyId,
        events: [...new Set(dto.events ?? [])],
        custom_headers: JSON.stringify(dto.customHeaders ?? {}),
        http_method: dto.httpMethod ?? 'POST',
        content_type: dto.contentType ?? 'application/json',
        timeout_ms: dto.timeoutMs ?? 30000,
        max_retries: dto.maxRetries ?? 3,
        verify_ssl: dto.verifySsl ?? true,
        auto_disable_after_failures: dto.autoDisableAfterFailures ?? 10,
        secret_encrypted: this.secrets.encrypt(secret),
        secret_preview: previewSecret(secret),
        created_by_id: principal.userId,
      });
      await this.record(m, 'CREATE', created, null, `Webhook "${created.name}" created`);
      return created;
    });
    const view = toWebhookView(row);
    const { id, name, url, isActive, events, hasSecret, secretPreview, createdAt } = view;
    return {
      data: { id, name, url, isActive, events, hasSecret, secretPreview, createdAt, secret },
      meta: { message: SECRET_MESSAGE },
    };
  }

  async update(id: number, dto: UpdateWebhookDto) {
    await this.checkInput(dto);
    const row = await this.db.transaction(async (m) => {
      const before = await this.find(m, id, true);
      const changes: Record<string, unknown> = {};
      for (const [field, column] of Object.entries(COLUMN_OF)) {
        const value = (dto as Record<string, unknown>)[field];
        if (value === undefined) continue;
        if (value === null && !NULLABLE.includes(field)) {
          throw AppError.validation([{ field, message: `${field} must not be null` }]);
        }
        changes[column] = columnValue(field, value);
      }
      if (dto.companyId !== undefined && (dto.companyId ?? null) !== before.company_id) {
        await this.checkCompany(m, dto.companyId ?? null);
      }
      if (!Object.keys(changes).length) return before;
      const after = await this.webhooks.update(m, id, changes);
      await this.record(m, 'UPDATE', after, before, `Webhook "${after.name}" updated`);
      return after;
    });
    return { data: toWebhookView(row) };
  }

  async remove(id: number) {
    await this.db.transaction(async (m) => {
      const before = await this.find(m, id, true);
      await this.webhooks.delete(m, id);
      await this.record(m, 'DELETE', null, before, `Webhook "${before.name}" deleted`);
    });
  }

  async setActive(id: number, active: boolean) {
    const row = await this.db.transaction(async (m) => {
      const before = await this.find(m, id, true);
      const after = await this.webhooks.setActive(m, id, active);
      const verb = active ? 'enabled' : 'disabled';
      await this.record(m, 'UPDATE', after, before, `Webhook "${after.name}" ${verb}`);
      return after;
    });
    return { data: toWebhookView(row) };
  }

  async regenerateSecret(id: number) {
    const secret = generateSecret();
    const row = await this.db.transaction(async (m) => {
      const before = await this.find(m, id, true);
      const after = await this.webhooks.setSecret(m, id, this.secrets.encrypt(secret), previewSecret(secret));
      await this.audit.record(m, {
        action: 'UPDATE',
        entityType: 'Webhook',
        entityId: id,
        message: `Secret of webhook "${before.name}" regenerated`,
        changes: { secretPreview: { old: before.secret_preview, new: after.secret_preview } },
        metadata: { event: 'WEBHOOK_SECRET_REGENERATED' },
      });
      return after;
    });
    return {
      data: { id: row.id, hasSecret: true, secretPreview: row.secret_preview, secret },
      meta: { message: SECRET_MESSAGE },
    };
  }

  async find(m: EntityManager, id: number, lock = false): Promise<WebhookRow> {
    const row = await this.webhooks.find(m, id, lock);
    if (!row) throw AppError.notFound('Webhook');
    return row;
  }

  private async checkInput(dto: UpdateWebhookDto) {
    const problems = headerProblems(dto.customHeaders);
    if (dto.url !== undefined && dto.url !== null) {
      const refused = await refuseTarget(dto.url, this.settings.WEBHOOK_ALLOW_PRIVATE_TARGETS);
      if (refused) problems.unshift({ field: 'url', message: refused });
    }
    if (problems.length) throw AppError.validation(problems);
  }

  /** The company must exist, and its group (null = system-wide) must have room for one more. */
  private async checkCompany(m: EntityManager, companyId: number | null) {
    if (companyId !== null) {
      if (!(await this.webhooks.companyExists(m, companyId)))
        throw AppError.validation([{ field: 'companyId', message: 'companyId does not name a company' }]);
    }
    const count = await this.webhooks.countInGroupLocked(m, LIMIT_LOCK, companyId);
    if (count >= MAX_WEBHOOKS_PER_COMPANY) {
      const group = companyId === null ? 'System-wide webhooks are' : 'A company is';
      throw AppError.validation([
        { field: 'companyId', message: `${group} limited to ${MAX_WEBHOOKS_PER_COMPANY} webhooks` },
      ]);
    }
  }

  private record(
    m: EntityManager,
    action: 'CREATE' | 'UPDATE' | 'DELETE',
    after: WebhookRow | null,
    before: WebhookRow | null,
    message: string,
  ) {
    const form = (r: WebhookRow | null) => (r ? auditForm(toWebhookView(r)) : null);
    return this.audit.record(m, {
      action,
      entityType: 'Webhook',
      entityId: (after ?? before)!.id,
      message,
      changes: diffChanges(form(before), form(after), [
        'createdAt',
        'updatedAt',
        'consecutiveFailures',
        'lastDeliveryAt',
      ]),
    });
  }
}
