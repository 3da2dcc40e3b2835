import { Body, Controller, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Route } from '../../access/route.decorator';
import { CurrentPrincipal } from '../../access/access-rules';
import { refuseApiToken } from '../api-tokens/api-token-limits';
import { Principal } from '../../access/principal';
import {
  AssignRoleDto,
  CreateUserDto,
  GrantSandboxesDto,
  UpdateUserDto,
  UserDto,
  UserEnvelopeDto,
  UserQueryDto,
  UserSandboxesDto,
} from './dto/user.dto';
import { UserAccessService } from './user-access.service';
import { UsersAdminService } from './users-admin.service';
import { IdParam } from '../../common/validation/id-param.pipe';
import { PageOf } from '../../records/record-envelopes';

@ApiTags('Administration: users')
@Controller('api/admin/users')
export class UsersAdminController {
  constructor(
    private readonly users: UsersAdminService,
    private readonly access: UserAccessService,
  ) {}

  @Route('GET', '', {
    summary: 'List users (paged; below ADMIN only the own company)',
    permissions: ['users:read'],
    response: PageOf(UserDto),
  })
  list(@CurrentPrincipal() principal: Principal, @Query() query: UserQueryDto) {
    return this.users.list(principal, query);
  }

  @Route('GET', ':id', {
    summary: 'Get a user',
    permissions: ['users:read'],
    response: UserEnvelopeDto,
    notFound: true,
  })
  get(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number) {
    return this.users.get(principal, id);
  }

  @Route('POST', '', {
    summary: 'Create a user (counts toward maxUsers); without password a setup link is mailed',
    description: 'Signed-in users only: an API token answers 403.',
    permissions: ['users:create'],
    response: UserEnvelopeDto,
    conflict: 'E-mail or username taken, or the client is at maxUsers',
  })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateUserDto) {
    refuseApiToken(principal, 'create users');
    return this.users.create(principal, dto);
  }

  @Route('PUT', ':id', {
    summary: 'Update the given fields of a user',
    description: 'An API token may not change the e-mail or username (403).',
    permissions: ['users:update'],
    response: UserEnvelopeDto,
  })
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdParam) id: number,
    @Body() dto: UpdateUserDto,
  ) {
    return this.users.update(principal, id, dto);
  }

  @Route('DELETE', ':id', {
    summary: 'Soft-delete a user (deleted_at) and end their sessions',
    permissions: ['users:delete'],
  })
  remove(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number) {
    return this.users.remove(principal, id);
  }

  @Route('POST', ':id/block', {
    summary: 'Block a user: every credential of theirs stops working',
    permissions: ['users:update'],
    response: UserEnvelopeDto,
  })
  block(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number) {
    return this.access.setBlocked(principal, id, true);
  }

  @Route('POST', ':id/unblock', {
    summary: 'Unblock a user',
    permissions: ['users:update'],
    response: UserEnvelopeDto,
  })
  unblock(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number) {
    return this.access.setBlocked(principal, id, false);
  }

  @Route('POST', ':id/unlock', {
    summary: 'End a lock after failed logins and reset the failure count',
    permissions: ['users:update'],
    response: UserEnvelopeDto,
  })
  unlock(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number) {
    return this.access.unlock(principal, id);
  }

  @Route('PUT', ':id/role', {
    summary: 'Assign a role (not above the caller’s own)',
    description: 'Signed-in users only: an API token answers 403.',
    permissions: ['users:update'],
    response: UserEnvelopeDto,
  })
  assignRole(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdParam) id: number,
    @Body() dto: AssignRoleDto,
  ) {
    refuseApiToken(principal, 'assign roles');
    return this.access.assignRole(principal, id, dto.roleId);
  }

  @Route('PUT', ':id/sandboxes', {
    summary: 'Set the sandboxes granted to a user',
    permissions: ['users:update'],
    response: UserSandboxesDto,
  })
  grantSandboxes(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdParam) id: number,
    @Body() dto: GrantSandboxesDto,
  ) {
    return this.access.grantSandboxes(principal, id, dto.sandboxIds);
  }
}
