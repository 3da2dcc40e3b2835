import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from '../../access/access-rules';
import { refuseApiToken } from '../api-tokens/api-token-limits';
import { Principal } from '../../access/principal';
import {
  AssignRoleDto,
  CreateUserDto,
  GrantSandboxesDto,
  UpdateUserDto,
  UserEnvelopeDto,
  UserQueryDto,
  UserSandboxesDto,
} from './dto/user.dto';
import { UserAccessService } from './user-access.service';
import { UsersAdminService } from './users-admin.service';
import { IdParam } from '../../common/validation/id-param.pipe';

@ApiTags('Administration: users')
@Controller('api/admin/users')
export class UsersAdminController {
  constructor(
    private readonly users: UsersAdminService,
    private readonly access: UserAccessService,
  ) {}

  @Get()
  @Authenticated({ permissions: ['users:read'] })
  @ApiOperation({ summary: 'List users (paged; below ADMIN only the own company)' })
  @ApiOkResponse({ description: '{ data: User[], meta: { pagination } }' })
  list(@CurrentPrincipal() principal: Principal, @Query() query: UserQueryDto) {
    return this.users.list(principal, query);
  }

  @Get(':id')
  @Authenticated({ permissions: ['users:read'] })
  @ApiOperation({ summary: 'Get a user' })
  @ApiOkResponse({ type: UserEnvelopeDto })
  @ApiNotFoundResponse()
  get(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number) {
    return this.users.get(principal, id);
  }

  @Post()
  @Authenticated({ permissions: ['users:create'] })
  @ApiOperation({
    summary: 'Create a user (counts toward maxUsers); without password a setup link is mailed',
    description: 'Signed-in users only: an API token answers 403.',
  })
  @ApiCreatedResponse({ type: UserEnvelopeDto })
  @ApiConflictResponse({ description: 'E-mail or username taken, or the client is at maxUsers' })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateUserDto) {
    refuseApiToken(principal, 'create users');
    return this.users.create(principal, dto);
  }

  @Put(':id')
  @Authenticated({ permissions: ['users:update'] })
  @ApiOperation({
    summary: 'Update the given fields of a user',
    description: 'An API token may not change the e-mail or username (403).',
  })
  @ApiOkResponse({ type: UserEnvelopeDto })
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdParam) id: number,
    @Body() dto: UpdateUserDto,
  ) {
    return this.users.update(principal, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ permissions: ['users:delete'] })
  @ApiOperation({ summary: 'Soft-delete a user (deleted_at) and end their sessions' })
  @ApiNoContentResponse()
  remove(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number) {
    return this.users.remove(principal, id);
  }

  @Post(':id/block')
  @HttpCode(200)
  @Authenticated({ permissions: ['users:update'] })
  @ApiOperation({ summary: 'Block a user: every credential of theirs stops working' })
  @ApiOkResponse({ type: UserEnvelopeDto })
  block(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number) {
    return this.access.setBlocked(principal, id, true);
  }

  @Post(':id/unblock')
  @HttpCode(200)
  @Authenticated({ permissions: ['users:update'] })
  @ApiOperation({ summary: 'Unblock a user' })
  @ApiOkResponse({ type: UserEnvelopeDto })
  unblock(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number) {
    return this.access.setBlocked(principal, id, false);
  }

  @Post(':id/unlock')
  @HttpCode(200)
  @Authenticated({ permissions: ['users:update'] })
  @ApiOperation({ summary: 'End a lock after failed logins and reset the failure count' })
  @ApiOkResponse({ type: UserEnvelopeDto })
  unlock(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number) {
    return this.access.unlock(principal, id);
  }

  @Put(':id/role')
  @Authenticated({ permissions: ['users:update'] })
  @ApiOperation({
    summary: 'Assign a role (not above the caller’s own)',
    description: 'Signed-in users only: an API token answers 403.',
  })
  @ApiOkResponse({ type: UserEnvelopeDto })
  assignRole(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdParam) id: number,
    @Body() dto: AssignRoleDto,
  ) {
    refuseApiToken(principal, 'assign roles');
    return this.access.assignRole(principal, id, dto.roleId);
  }

  @Put(':id/sandboxes')
  @Authenticated({ permissions: ['users:update'] })
  @ApiOperation({ summary: 'Set the sandboxes granted to a user' })
  @ApiOkResponse({ type: UserSandboxesDto })
  grantSandboxes(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdParam) id: number,
    @Body() dto: GrantSandboxesDto,
  ) {
    return this.access.grantSandboxes(principal, id, dto.sandboxIds);
  }
}
