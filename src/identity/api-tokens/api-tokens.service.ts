import { parseDateTime } from '../../common/validation/datetime';
import { Injectable } from '@nestjs/common';
import { AuditWriter, diffChanges } from '../../audit-trail/audit-writer';
import { API_TOKEN_PREFIX } from '../auth/api-token-authenticator';
import { can } from '../../access/permissions';
import { Principal } from '../../access/principal';
import { randomToken, sha256 } from '../../common/crypto/token-hash';
import { AppError } from '../../common/errors/app-error';
import { tenantContext } from '../../tenancy/tenant-context';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { ApiTokenAuthenticatorService } from './api-token-authenticator.service';
import { refuseApiToken } from './api-token-limits';
import { ApiTokensRepository } from './api-tokens.repository';
import { toPermissions } from './api-token-permissions';
import { ApiTokenDto, CreateApiTokenDto, CreatedApiTokenEnvelopeDto } from './dto/api-token.dto';
import { ApiToken, ResourcePermission } from './entities/api-token.entity';

const toView = (t: ApiToken): ApiTokenDto => ({
  id: t.id,
  name: t.name,
  description: t.description,
  tokenPreview: t.tokenPreview,
  isFullAccess: t.isFullAccess,
  permissions: t.permissions,
  expiresAt: t.expiresAt,
  revokedAt: t.revokedAt,
  lastUsedAt: t.lastUsedAt,
  createdById: t.createdById,
  companyId: t.companyId,
  createdAt: t.createdAt,
});

/** API tokens of the current client: created by users, shown once, stored as a hash. */
@Injectable()
export class ApiTokensService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly audit: AuditWriter,
    private readonly authenticator: ApiTokenAuthenticatorService,
    private readonly tokens: ApiTokensRepository,
  ) {}

  async create(principal: Principal, dto: CreateApiTokenDto): Promise<CreatedApiTokenEnvelopeDto> {
    refuseApiToken(principal, 'create API tokens');
    const isFullAccess = dto.isFullAccess ?? false;
    const permissions: ResourcePermission[] = (dto.permissions ?? []).map((p) => ({
      resourceName: p.resourceName,
      canCreate: p.canCreate ?? false,
      canRead: p.canRead ?? false,
      canUpdate: p.canUpdate ?? false,
      canDelete: p.canDelete ?? false,
      canPublish: p.canPublish ?? false,
    }));
    if (!isFullAccess && toPermissions(permissions).length === 0) {
      throw AppError.validation([
        {
          field: 'permissions',
          message: 'permissions must grant at least one action unless isFullAccess is true',
        },
      ]);
    }
    const notHeld = toPermissions(permissions).find((p) => !can(principal, p));
    if (notHeld) throw AppError.forbidden(`You cannot grant ${notHeld}, which you do not hold`);
    const expiresAt = dto.expiresAt ? parseDateTime(dto.expiresAt) : null;
    if (expiresAt && expiresAt.getTime() <= Date.now()) {
      throw AppError.validation([{ field: 'expiresAt', message: 'expiresAt must be in the future' }]);
    }
    const value = `${API_TOKEN_PREFIX}${randomToken(32)}`;
    const saved = await this.db.production((m) =>
      m.transaction(async (tx) => {
        const token = await this.tokens.insert(tx, {
          name: dto.name.trim(),
          description: dto.description ?? null,
          tokenHash: sha256(value),
          tokenPreview: value.slice(0, 10),
          createdById: principal.userId,
          companyId: principal.companyId,
          isFullAccess,
          permissions,
          expiresAt,
        });
        const view = toView(token);
        await this.audit.record(tx, {
          action: 'CREATE',
          entityType: 'ApiToken',
          entityId: token.id,
          message: `API token "${token.name}" created`,
          changes: diffChanges(null, view, ['createdAt', 'id', 'lastUsedAt', 'revokedAt']),
          metadata: { event: 'API_TOKEN_CREATED' },
        });
        return view;
      }),
    );
    return {
      data: { ...saved, token: value },
      meta: { message: 'Save this token now: it is not shown again' },
    };
  }

  async list(): Promise<{ data: ApiTokenDto[] }> {
    const tokens = await this.db.production((m) => this.tokens.list(m));
    return { data: tokens.map(toView) };
  }

  async revoke(id: number): Promise<void> {
    const hash = await this.db.production((m) =>
      m.transaction(async (tx) => {
        const token = await this.tokens.lockWithHash(tx, id);
        if (!token) throw AppError.notFound('API token');
        if (token.revokedAt) return token.tokenHash;
        const revokedAt = new Date();
        await this.tokens.markRevoked(tx, id, revokedAt);
        await this.audit.record(tx, {
          action: 'DELETE',
          entityType: 'ApiToken',
          entityId: id,
          message: `API token "${token.name}" revoked`,
          changes: { revokedAt: { old: null, new: revokedAt.toISOString() } },
          metadata: { event: 'API_TOKEN_REVOKED' },
        });
        return token.tokenHash;
      }),
    );
    await this.authenticator.revoked(tenantContext.get().client.identifier, hash);
  }
}
