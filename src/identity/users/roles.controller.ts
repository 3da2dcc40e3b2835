import { Body, Controller, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Route } from '../../access/route.decorator';
import { CurrentPrincipal } from '../../access/access-rules';
import { Principal } from '../../access/principal';
import { RoleEnvelopeDto, RoleListDto, UpdateRoleDto } from './dto/role.dto';
import { RolesService } from './roles.service';
import { IdParam } from '../../common/validation/id-param.pipe';

@ApiTags('Administration: roles')
@Controller('api/admin/roles')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @Route('GET', '', {
    summary: 'List the roles with their permissions',
    permissions: ['roles:read'],
    response: RoleListDto,
  })
  list() {
    return this.roles.list();
  }

  @Route('GET', ':id', {
    summary: 'Get a role',
    permissions: ['roles:read'],
    response: RoleEnvelopeDto,
    notFound: true,
  })
  get(@Param('id', IdParam) id: number) {
    return this.roles.get(id);
  }

  @Route('PUT', ':id', {
    summary: 'Replace a role’s permissions and/or description',
    permissions: ['roles:update'],
    response: RoleEnvelopeDto,
  })
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdParam) id: number,
    @Body() dto: UpdateRoleDto,
  ) {
    return this.roles.update(principal, id, dto);
  }
}
