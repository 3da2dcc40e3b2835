import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
} from 'class-validator';
import { PROVIDER_TYPES, ProviderType } from '../entities/identity-provider.entity';
import { PRESET_KEYS } from '../providers/presets';

const URL_RULE = /^https?:\/\/[^\s/]+(\/\S*)?$/;
const URL_MESSAGE = { message: '$property must be an http(s) URL' };

/** Fields of section 2 (and their earlier names). Every field optional: PUT updates what it is given. */
export class IdentityProviderFieldsDto {
  @ApiPropertyOptional({ example: 'entra', description: 'Short code, unique per client' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, {
    message: 'name must be a short code (letters, digits, _ . -)',
  })
  name?: string;

  @ApiPropertyOptional({ example: 'Sign in with Microsoft' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  displayName?: string;

  @ApiPropertyOptional({ enum: PROVIDER_TYPES })
  @IsOptional()
  @IsIn(PROVIDER_TYPES)
  providerType?: ProviderType;

  @ApiPropertyOptional({ enum: PROVIDER_TYPES, description: 'Earlier name of providerType' })
  @IsOptional()
  @IsIn(PROVIDER_TYPES)
  type?: ProviderType;

  @ApiPropertyOptional({ enum: PRESET_KEYS, nullable: true })
  @IsOptional()
  @IsIn([...PRESET_KEYS, null])
  presetProvider?: string | null;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  clientId?: string;

  @ApiPropertyOptional({ description: 'Stored encrypted, never returned' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(4000)
  clientSecret?: string;

  @ApiPropertyOptional({ example: 'https://idp.example.com/.well-known/openid-configuration' })
  @IsOptional()
  @Matches(URL_RULE, URL_MESSAGE)
  @MaxLength(2000)
  discoveryUri?: string;

  @ApiPropertyOptional({ description: 'Issuer; discovery at <issuerUrl>/.well-known/openid-configuration' })
  @IsOptional()
  @Matches(URL_RULE, URL_MESSAGE)
  @MaxLength(2000)
  issuerUrl?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Matches(URL_RULE, URL_MESSAGE)
  @MaxLength(2000)
  authorizationUri?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Matches(URL_RULE, URL_MESSAGE)
  @MaxLength(2000)
  tokenUri?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Matches(URL_RULE, URL_MESSAGE)
  @MaxLength(2000)
  userInfoUri?: string;

  @ApiPropertyOptional({ example: 'openid profile email', description: 'Space-separated' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  scopes?: string;

  @ApiPropertyOptional({ description: 'SAML IdP entity id' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(1000)
  entityId?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Matches(URL_RULE, URL_MESSAGE)
  @MaxLength(2000)
  ssoUrl?: string;

  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @Matches(URL_RULE, URL_MESSAGE)
  @MaxLength(2000)
  sloUrl?: string | null;

  @ApiPropertyOptional({ description: 'PEM certificate of the IdP' })
  @IsOptional()
  @IsString()
  @MaxLength(20000)
  idpCertificate?: string;

  @ApiPropertyOptional({ description: 'Earlier name of idpCertificate' })
  @IsOptional()
  @IsString()
  @MaxLength(20000)
  certificate?: string;

  @ApiPropertyOptional({ enum: ['RSA_SHA256', 'RSA_SHA512', 'RSA_SHA1'], default: 'RSA_SHA256' })
  @IsOptional()
  @IsIn(['RSA_SHA256', 'RSA_SHA512', 'RSA_SHA1'])
  signingAlgorithm?: string;

  @ApiPropertyOptional({ example: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress' })
  @IsOptional()
  @Matches(/^urn:oasis:names:tc:SAML:[12]\.[01]:nameid-format:[A-Za-z]+$/, {
    message: 'nameIdFormat must be a SAML NameID format URN',
  })
  nameIdFormat?: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  wantAssertionsSigned?: boolean;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  wantAuthnRequestsSigned?: boolean;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ description: 'Earlier name of enabled' })
  @IsOptional()
  @IsBoolean()
  isEnabled?: boolean;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  jitEnabled?: boolean;

  @ApiPropertyOptional({
    nullable: true,
    type: 'integer',
    minimum: 1,
    description: 'Role of JIT-created users (default Viewer)',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  jitDefaultRoleId?: number | null;

  @ApiPropertyOptional({ nullable: true, type: 'integer', minimum: 1 })
  @IsOptional()
  @IsInt()
  @Min(1)
  jitDefaultProfileId?: number | null;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  autoLinkByEmail?: boolean;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 2000,
    example: 'acme.com, acme.de',
    description: 'Comma- or space-separated domains',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  allowedDomains?: string | null;

  @ApiPropertyOptional({
    nullable: true,
    type: 'integer',
    minimum: 1,
    description: 'Company of JIT-created users',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  companyId?: number | null;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { email: 'email', firstName: 'given_name', lastName: 'family_name' },
    description: 'Keys email, firstName, lastName, displayName, phoneNumber → IdP claim/attribute name',
  })
  @IsOptional()
  @IsObject()
  attributeMapping?: Record<string, string>;
}

export class CreateIdentityProviderDto extends IdentityProviderFieldsDto {}
export class UpdateIdentityProviderDto extends IdentityProviderFieldsDto {}

export class DiscoverDto {
  @ApiPropertyOptional()
  @IsOptional()
  @Matches(URL_RULE, URL_MESSAGE)
  @MaxLength(2000)
  discoveryUri?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Matches(URL_RULE, URL_MESSAGE)
  @MaxLength(2000)
  issuerUrl?: string;
}

export class IdentityProviderViewDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty() displayName: string;
  @ApiProperty({ enum: PROVIDER_TYPES }) providerType: ProviderType;
  @ApiPropertyOptional({ nullable: true, type: String }) presetProvider: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) clientId: string | null;
  @ApiProperty({ description: 'Whether a client secret is stored (the secret is never returned)' })
  hasClientSecret: boolean;
  @ApiPropertyOptional({ nullable: true, type: String }) discoveryUri: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) issuerUrl: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) authorizationUri: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) tokenUri: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) userInfoUri: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) scopes: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) entityId: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) ssoUrl: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) sloUrl: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) idpCertificate: string | null;
  @ApiProperty() signingAlgorithm: string;
  @ApiPropertyOptional({ nullable: true, type: String }) nameIdFormat: string | null;
  @ApiProperty() wantAssertionsSigned: boolean;
  @ApiProperty() wantAuthnRequestsSigned: boolean;
  @ApiProperty() enabled: boolean;
  @ApiProperty() jitEnabled: boolean;
  @ApiPropertyOptional({ nullable: true, type: Number }) jitDefaultRoleId: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) jitDefaultProfileId: number | null;
  @ApiProperty() autoLinkByEmail: boolean;
  @ApiPropertyOptional({ nullable: true, type: String }) allowedDomains: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) companyId: number | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) attributeMapping: Record<
    string,
    string
  >;
  @ApiProperty({ description: 'OAuth2/OIDC redirect URI to register at the IdP' }) callbackUrl: string;
  @ApiPropertyOptional({ nullable: true, type: Date }) lastTestedAt: Date | null;
  @ApiPropertyOptional({ nullable: true, type: String }) lastTestStatus: string | null;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export class IdentityProviderEnvelopeDto {
  @ApiProperty({ type: IdentityProviderViewDto }) data: IdentityProviderViewDto;
}

export class IdentityProviderListDto {
  @ApiProperty({ type: [IdentityProviderViewDto] }) data: IdentityProviderViewDto[];
}

export class DiscoveryResultDto {
  @ApiProperty() issuer: string;
  @ApiProperty() authorizationUri: string;
  @ApiProperty() tokenUri: string;
  @ApiPropertyOptional({ nullable: true, type: String }) userInfoUri: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) jwksUri: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) endSessionUri: string | null;
  @ApiProperty({ type: [String] }) scopesSupported: string[];
  @ApiProperty({ type: [String] }) claimsSupported: string[];
  @ApiProperty({ type: [String] }) codeChallengeMethodsSupported: string[];
}

export class DiscoveryEnvelopeDto {
  @ApiProperty({ type: DiscoveryResultDto }) data: DiscoveryResultDto;
}

export class TestResultDto {
  @ApiProperty({ enum: ['SUCCESS', 'FAILED'] }) status: string;
  @ApiProperty() message: string;
  @ApiPropertyOptional({ nullable: true, type: String }) issuer: string | null;
  @ApiProperty() testedAt: Date;
}

export class TestResultEnvelopeDto {
  @ApiProperty({ type: TestResultDto }) data: TestResultDto;
}

export class ProviderPresetDto {
  @ApiProperty({ example: 'MICROSOFT_ENTRA_ID' }) key: string;
  @ApiProperty({ example: 'Microsoft Entra ID (Azure AD)' }) label: string;
  @ApiProperty({ enum: PROVIDER_TYPES }) providerType: string;
  @ApiPropertyOptional({ description: 'Discovery document address; `{placeholders}` are to be replaced' })
  discoveryUri?: string;
  @ApiPropertyOptional() authorizationUri?: string;
  @ApiPropertyOptional() tokenUri?: string;
  @ApiPropertyOptional() userInfoUri?: string;
  @ApiProperty({ example: 'openid profile email' }) scopes: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) attributeMapping: Record<
    string,
    string
  >;
  @ApiProperty({ type: [String], description: 'Fields to give when creating a provider from the preset' })
  requiredFields: string[];
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Placeholder → meaning',
  })
  placeholders: Record<string, string>;
  @ApiProperty() documentation: string;
}

export class PresetListDto {
  @ApiProperty({ type: [ProviderPresetDto], description: 'Preset templates for well-known providers' })
  data: ProviderPresetDto[];
}
