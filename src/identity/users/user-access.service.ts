import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuditWriter } from '../../audit-trail/audit-writer';
import { LoginLocksRepository } from '../auth/login-locks.repository';
import { SandboxGrantsRepository } from '../auth/sandbox-grants.repository';
import { AuthStateCache } from '../auth/auth-state.cache';
import { Principal } from '../../access/principal';
import { SessionService } from '../auth/session.service';
import { AppError } from '../../common/errors/app-error';
import { tenantContext } from '../../tenancy/tenant-context';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { User } from './entities/user.entity';
import { ensureMayChange, UserLookup } from './user-lookup';
import { toUserView } from './user-view';
import { UsersRepository } from './users.repository';

/** Block, unblock, unlock, role assignment and sandbox grants. */
@Injectable()
export class UserAccessService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly audit: AuditWriter,
    private readonly cache: AuthStateCache,
    private readonly sessions: SessionService,
    private readonly lookup: UserLookup,
    private readonly users: UsersRepository,
    private readonly locks: LoginLocksRepository,
    private readonly grants: SandboxGrantsRepository,
  ) {}

  setBlocked(principal: Principal, id: number, blocked: boolean) {
    return this.change(principal, id, !blocked, async (tx, user) => {
      if (user.blocked === blocked) return user;
      await this.users.setBlocked(tx, id, blocked);
      // Every session issued before the block ends for good: unblocking does not bring it back.
      if (blocked) await this.sessions.endAll(tx, id);
      await this.audit.record(tx, {
        action: 'UPDATE',
        entityType: 'User',
        entityId: id,
        message: `User ${user.email} ${blocked ? 'blocked' : 'unblocked'}`,
        changes: { blocked: { old: user.blocked, new: blocked } },
        metadata: { event: blocked ? 'USER_BLOCKED' : 'USER_UNBLOCKED' },
      });
      return { ...user, blocked };
    });
  }

  unlock(principal: Principal, id: number) {
    return this.change(principal, id, true, async (tx, user) => {
      await this.locks.clearFailures(tx, id);
      await this.audit.record(tx, {
        action: 'UPDATE',
        entityType: 'User',
        entityId: id,
        message: `User ${user.email} unlocked`,
        changes: { lockedUntil: { old: user.lockedUntil, new: null } },
        metadata: { event: 'ACCOUNT_UNLOCKED' },
      });
      return { ...user, lockedUntil: null, failedLoginCount: 0 };
    });
  }

  assignRole(principal: Principal, id: number, roleId: number) {
    return this.change(principal, id, false, async (tx, user) => {
      const role = await this.lookup.assignableRole(tx, principal, roleId);
      if (role.id === user.roleId) return user;
      await this.users.setRole(tx, id, role.id);
      await this.audit.record(tx, {
        action: 'UPDATE',
        entityType: 'User',
        entityId: id,
        message: `Role of ${user.email} changed from ${user.role!.type} to ${role.type}`,
        changes: {
          roleId: { old: user.roleId, new: role.id },
          role: { old: user.role!.type, new: role.type },
        },
        metadata: { event: 'ROLE_ASSIGNED' },
      });
      return { ...user, roleId: role.id, role };
    });
  }

  async grantSandboxes(principal: Principal, id: number, sandboxIds: number[]) {
    const unique = [...new Set(sandboxIds)].sort((a, b) => a - b);
    await this.change(principal, id, true, async (tx, user) => {
      const found = await this.grants.existingSandboxIds(tx, unique);
      const missing = unique.filter((s) => !found.includes(s));
      if (missing.length) {
        throw AppError.validation([
          { field: 'sandboxIds', message: `No sandbox with id ${missing.join(', ')}` },
        ]);
      }
      const before = await this.grants.grantedTo(tx, id);
      await this.grants.replace(tx, id, unique);
      await this.audit.record(tx, {
        action: 'UPDATE',
        entityType: 'User',
        entityId: id,
        message: `Sandboxes of ${user.email} set`,
        changes: { sandboxIds: { old: before, new: unique } },
        metadata: { event: 'SANDBOXES_GRANTED' },
      });
      return user;
    });
    return { data: { userId: id, sandboxIds: unique } };
  }

  private async change(
    principal: Principal,
    id: number,
    selfAllowed: boolean,
    work: (tx: EntityManager, user: User) => Promise<User>,
  ) {
    const user = await this.db.production((m) =>
      m.transaction(async (tx) => {
        const target = await this.lookup.findUser(tx, principal, id, true);
        ensureMayChange(principal, target, selfAllowed);
        return work(tx, target);
      }),
    );
    await this.cache.invalidate(tenantContext.get().client.identifier, id);
    return { data: toUserView(user) };
  }
}
