import { Body, Controller, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Route } from '../../access/route.decorator';
import { CurrentPrincipal } from '../../access/access-rules';
import { Principal } from '../../access/principal';
import { ApiTokensService } from './api-tokens.service';
import { ApiTokenListDto, CreateApiTokenDto, CreatedApiTokenEnvelopeDto } from './dto/api-token.dto';
import { IdParam } from '../../common/validation/id-param.pipe';

@ApiTags('Administration: API tokens')
@Controller('api/admin/tokens')
export class ApiTokensController {
  constructor(private readonly tokens: ApiTokensService) {}

  @Route('POST', '', {
    summary: 'Create an API token; its svc_ value is shown only in this answer',
    permissions: ['api_tokens:create'],
    minRole: 'ADMIN',
    response: CreatedApiTokenEnvelopeDto,
  })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateApiTokenDto) {
    return this.tokens.create(principal, dto);
  }

  @Route('GET', '', {
    summary: 'List the API tokens of the client (values are never shown)',
    permissions: ['api_tokens:read'],
    minRole: 'ADMIN',
    response: ApiTokenListDto,
  })
  list() {
    return this.tokens.list();
  }

  @Route('DELETE', ':id', {
    summary: 'Revoke an API token; it answers 401 from now on',
    permissions: ['api_tokens:delete'],
    minRole: 'ADMIN',
    notFound: true,
  })
  revoke(@Param('id', IdParam) id: number) {
    return this.tokens.revoke(id);
  }
}
