import { Injectable } from '@nestjs/common';
import { AuditWriter, diffChanges } from '../../audit-trail/audit-writer';
import { can } from '../../access/permissions';
import { AuthStateCache } from '../auth/auth-state.cache';
import { normalizePermission } from '../../access/permissions';
import { Principal } from '../../access/principal';
import { AppError, FieldError } from '../../common/errors/app-error';
import { tenantContext } from '../../tenancy/tenant-context';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { RoleDto, UpdateRoleDto } from './dto/role.dto';
import { Role } from './entities/role.entity';
import { RolesRepository } from './roles.repository';

const toView = (r: Role): RoleDto => ({
  id: r.id,
  name: r.name,
  type: r.type,
  description: r.description,
  permissions: [...r.permissions].sort(),
});

/** The five roles of a client and their permission sets. */
@Injectable()
export class RolesService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly audit: AuditWriter,
    private readonly cache: AuthStateCache,
    private readonly roles: RolesRepository,
  ) {}

  async list() {
    const rows = await this.db.production((m) => this.roles.list(m));
    return { data: rows.map(toView) };
  }

  async get(id: number) {
    const role = await this.db.production((m) => this.roles.findById(m, id));
    if (!role) throw AppError.notFound('Role');
    return { data: toView(role) };
  }

  /**
   * Replaces permissions and/or description. Only a SUPER_ADMIN edits the SUPER_ADMIN role, and
   * nobody grants a permission they do not hold themselves.
   */
  async update(principal: Principal, id: number, dto: UpdateRoleDto) {
    const permissions = dto.permissions ? this.canonical(dto.permissions) : undefined;
    const role = await this.db.production((m) =>
      m.transaction(async (tx) => {
        const before = await this.roles.lockById(tx, id);
        if (!before) throw AppError.notFound('Role');
        if (before.type === 'SUPER_ADMIN' && principal.role !== 'SUPER_ADMIN') {
          throw AppError.forbidden('Only a super administrator may edit the SUPER_ADMIN role');
        }
        const added = (permissions ?? []).filter((p) => !before.permissions.includes(p));
        const notHeld = added.find((p) => !can(principal, p));
        if (notHeld) throw AppError.forbidden(`You cannot grant ${notHeld}, which you do not hold`);
        const after = await this.roles.save(tx, {
          ...before,
          permissions: permissions ?? before.permissions,
          description: dto.description ?? before.description,
        });
        const changes = diffChanges(
          { permissions: [...before.permissions].sort(), description: before.description },
          { permissions: [...after.permissions].sort(), description: after.description },
        );
        if (Object.keys(changes).length) {
          await this.audit.record(tx, {
            action: 'UPDATE',
            entityType: 'Role',
            entityId: id,
            message: `Role ${after.type} updated`,
            changes,
            metadata: { event: 'PERMISSIONS_CHANGED' },
          });
        }
        return after;
      }),
    );
    await this.cache.invalidate(tenantContext.get().client.identifier);
    return { data: toView(role) };
  }

  private canonical(values: string[]): string[] {
    const errors: FieldError[] = [];
    const result = new Set<string>();
    values.forEach((value, index) => {
      const permission = normalizePermission(value);
      if (permission) result.add(permission);
      else
        errors.push({
          field: `permissions.${index}`,
          message: `"${value}" is not a {resource}:{action} or cms.{collection}:{action} permission`,
        });
    });
    if (errors.length) throw AppError.validation(errors);
    return [...result];
  }
}
