import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from '../../access/access-rules';
import { Principal } from '../../access/principal';
import { RoleEnvelopeDto, RoleListDto, UpdateRoleDto } from './dto/role.dto';
import { RolesService } from './roles.service';
import { IdParam } from '../../common/validation/id-param.pipe';

@ApiTags('Administration: roles')
@Controller('api/admin/roles')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @Get()
  @Authenticated({ permissions: ['roles:read'] })
  @ApiOperation({ summary: 'List the roles with their permissions' })
  @ApiOkResponse({ type: RoleListDto })
  list() {
    return this.roles.list();
  }

  @Get(':id')
  @Authenticated({ permissions: ['roles:read'] })
  @ApiOperation({ summary: 'Get a role' })
  @ApiOkResponse({ type: RoleEnvelopeDto })
  @ApiNotFoundResponse()
  get(@Param('id', IdParam) id: number) {
    return this.roles.get(id);
  }

  @Put(':id')
  @Authenticated({ permissions: ['roles:update'] })
  @ApiOperation({ summary: 'Replace a role’s permissions and/or description' })
  @ApiOkResponse({ type: RoleEnvelopeDto })
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdParam) id: number,
    @Body() dto: UpdateRoleDto,
  ) {
    return this.roles.update(principal, id, dto);
  }
}
