import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from '../../access/access-rules';
import { Principal } from '../../access/principal';
import { ApiTokensService } from './api-tokens.service';
import { ApiTokenListDto, CreateApiTokenDto, CreatedApiTokenEnvelopeDto } from './dto/api-token.dto';
import { IdParam } from '../../common/validation/id-param.pipe';

@ApiTags('Administration: API tokens')
@Controller('api/admin/tokens')
export class ApiTokensController {
  constructor(private readonly tokens: ApiTokensService) {}

  @Post()
  @Authenticated({ minRole: 'ADMIN', permissions: ['api_tokens:create'] })
  @ApiOperation({ summary: 'Create an API token; its svc_ value is shown only in this answer' })
  @ApiCreatedResponse({ type: CreatedApiTokenEnvelopeDto })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateApiTokenDto) {
    return this.tokens.create(principal, dto);
  }

  @Get()
  @Authenticated({ minRole: 'ADMIN', permissions: ['api_tokens:read'] })
  @ApiOperation({ summary: 'List the API tokens of the client (values are never shown)' })
  @ApiOkResponse({ type: ApiTokenListDto })
  list() {
    return this.tokens.list();
  }

  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ minRole: 'ADMIN', permissions: ['api_tokens:delete'] })
  @ApiOperation({ summary: 'Revoke an API token; it answers 401 from now on' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse()
  revoke(@Param('id', IdParam) id: number) {
    return this.tokens.revoke(id);
  }
}
