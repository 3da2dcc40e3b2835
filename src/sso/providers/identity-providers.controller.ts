import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated } from '../../access/access-rules';
import {
  CreateIdentityProviderDto,
  DiscoverDto,
  DiscoveryEnvelopeDto,
  IdentityProviderEnvelopeDto,
  IdentityProviderListDto,
  PresetListDto,
  TestResultEnvelopeDto,
  UpdateIdentityProviderDto,
} from '../dto/identity-provider.dto';
import { IdentityProvidersService } from './identity-providers.service';
import { PRESETS } from './presets';
import { IdParam } from '../../common/validation/id-param.pipe';

@ApiTags('Identity providers (admin)')
@Controller('api/admin/identity-providers')
export class IdentityProvidersController {
  constructor(private readonly providers: IdentityProvidersService) {}

  @Get()
  @Authenticated({ minRole: 'ADMIN', permissions: ['identity_providers:read'] })
  @ApiOperation({ summary: 'List the identity providers of the client' })
  @ApiOkResponse({ type: IdentityProviderListDto })
  list() {
    return this.providers.list();
  }

  @Get('presets')
  @Authenticated({ minRole: 'ADMIN', permissions: ['identity_providers:read'] })
  @ApiOperation({ summary: 'Preset templates for well-known providers' })
  @ApiOkResponse({ type: PresetListDto })
  presets() {
    return { data: PRESETS };
  }

  @Post('discover')
  @HttpCode(200)
  @Authenticated({ minRole: 'ADMIN', permissions: ['identity_providers:create'] })
  @ApiOperation({ summary: 'OIDC discovery: fetch the endpoints of a discovery document' })
  @ApiOkResponse({ type: DiscoveryEnvelopeDto })
  @ApiBadGatewayResponse({ description: 'The document could not be fetched or read' })
  discover(@Body() dto: DiscoverDto) {
    return this.providers.discover(dto);
  }

  @Get(':id')
  @Authenticated({ minRole: 'ADMIN', permissions: ['identity_providers:read'] })
  @ApiOperation({ summary: 'Get an identity provider' })
  @ApiOkResponse({ type: IdentityProviderEnvelopeDto })
  @ApiNotFoundResponse()
  get(@Param('id', IdParam) id: number) {
    return this.providers.get(id);
  }

  @Post()
  @Authenticated({ minRole: 'ADMIN', permissions: ['identity_providers:create'] })
  @ApiOperation({ summary: 'Create an identity provider (OIDC, OAUTH2 or SAML)' })
  @ApiCreatedResponse({ type: IdentityProviderEnvelopeDto })
  create(@Body() dto: CreateIdentityProviderDto) {
    return this.providers.create(dto);
  }

  @Put(':id')
  @Authenticated({ minRole: 'ADMIN', permissions: ['identity_providers:update'] })
  @ApiOperation({ summary: 'Update the given fields of an identity provider' })
  @ApiOkResponse({ type: IdentityProviderEnvelopeDto })
  @ApiNotFoundResponse()
  update(@Param('id', IdParam) id: number, @Body() dto: UpdateIdentityProviderDto) {
    return this.providers.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ minRole: 'ADMIN', permissions: ['identity_providers:delete'] })
  @ApiOperation({ summary: 'Delete an identity provider and its linked identities' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse()
  remove(@Param('id', IdParam) id: number) {
    return this.providers.remove(id);
  }

  @Post(':id/test')
  @HttpCode(200)
  @Authenticated({ minRole: 'ADMIN', permissions: ['identity_providers:update'] })
  @ApiOperation({ summary: 'Test the connection to an identity provider' })
  @ApiOkResponse({ type: TestResultEnvelopeDto })
  @ApiNotFoundResponse()
  test(@Param('id', IdParam) id: number) {
    return this.providers.test(id);
  }
}
