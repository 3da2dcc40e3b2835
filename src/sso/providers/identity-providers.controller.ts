import { Body, Controller, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Route } from '../../access/route.decorator';
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

  @Route('GET', '', {
    summary: 'List the identity providers of the client',
    permissions: ['identity_providers:read'],
    minRole: 'ADMIN',
    response: IdentityProviderListDto,
  })
  list() {
    return this.providers.list();
  }

  @Route('GET', 'presets', {
    summary: 'Preset templates for well-known providers',
    permissions: ['identity_providers:read'],
    minRole: 'ADMIN',
    response: PresetListDto,
  })
  presets() {
    return { data: PRESETS };
  }

  @Route('POST', 'discover', {
    summary: 'OIDC discovery: fetch the endpoints of a discovery document',
    permissions: ['identity_providers:create'],
    minRole: 'ADMIN',
    response: DiscoveryEnvelopeDto,
    status: 200,
    answers: { 502: 'The document could not be fetched or read' },
  })
  discover(@Body() dto: DiscoverDto) {
    return this.providers.discover(dto);
  }

  @Route('GET', ':id', {
    summary: 'Get an identity provider',
    permissions: ['identity_providers:read'],
    minRole: 'ADMIN',
    response: IdentityProviderEnvelopeDto,
    notFound: true,
  })
  get(@Param('id', IdParam) id: number) {
    return this.providers.get(id);
  }

  @Route('POST', '', {
    summary: 'Create an identity provider (OIDC, OAUTH2 or SAML)',
    permissions: ['identity_providers:create'],
    minRole: 'ADMIN',
    response: IdentityProviderEnvelopeDto,
  })
  create(@Body() dto: CreateIdentityProviderDto) {
    return this.providers.create(dto);
  }

  @Route('PUT', ':id', {
    summary: 'Update the given fields of an identity provider',
    permissions: ['identity_providers:update'],
    minRole: 'ADMIN',
    response: IdentityProviderEnvelopeDto,
    notFound: true,
  })
  update(@Param('id', IdParam) id: number, @Body() dto: UpdateIdentityProviderDto) {
    return this.providers.update(id, dto);
  }

  @Route('DELETE', ':id', {
    summary: 'Delete an identity provider and its linked identities',
    permissions: ['identity_providers:delete'],
    minRole: 'ADMIN',
    notFound: true,
  })
  remove(@Param('id', IdParam) id: number) {
    return this.providers.remove(id);
  }

  @Route('POST', ':id/test', {
    summary: 'Test the connection to an identity provider',
    permissions: ['identity_providers:update'],
    minRole: 'ADMIN',
    response: TestResultEnvelopeDto,
    notFound: true,
  })
  test(@Param('id', IdParam) id: number) {
    return this.providers.test(id);
  }
}
