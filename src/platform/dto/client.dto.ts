import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsClientIdentifier, IsSubdomain } from '../../tenancy/client-identifier';
import {
  IsEmail,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { CLIENT_STATUSES, ClientStatus } from '../../tenancy/entities/client.entity';

const lower = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim().toLowerCase() : value;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export class CreateClientDto {
  @ApiProperty({ description: 'Unique slug; names the client database', example: 'acme-energy' })
  @IsClientIdentifier()
  identifier: string;

  @ApiProperty({
    description: 'Display name; may be left out only when its alias companyName is given',
    example: 'Acme Energy',
  })
  @ValidateIf((o: CreateClientDto) => o.companyName === undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ description: 'Display name' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  companyName?: string;

  @ApiPropertyOptional({ example: 'acme' })
  @IsOptional()
  @IsSubdomain()
  subdomain?: string;

  @ApiPropertyOptional({ example: 'maintenance.acme.com' })
  @IsOptional()
  @Transform(lower)
  @IsString()
  @Matches(DOMAIN, { message: 'customDomain must be a domain name' })
  customDomain?: string;

  @ApiProperty({ description: 'E-mail of the first ADMIN user', example: 'it@acme.com' })
  @IsEmail()
  @MaxLength(254)
  contactEmail: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1_000_000, default: 50 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  maxUsers?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 1000, default: 3 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1000)
  maxSandboxes?: number;

  @ApiPropertyOptional({
    description:
      'Database server to place it on (409 unless active with room); default: the active one with the most room',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  serverId?: number;
}

export class UpdateClientDto {
  @ApiPropertyOptional({ description: 'Alias of companyName' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  companyName?: string;

  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @IsSubdomain()
  subdomain?: string;

  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @Transform(lower)
  @IsString()
  @Matches(DOMAIN, { message: 'customDomain must be a domain name' })
  customDomain?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsEmail()
  @MaxLength(254)
  contactEmail?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1_000_000 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  maxUsers?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 1000 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1000)
  maxSandboxes?: number;
}

export class ClientDto {
  @ApiProperty() id: number;
  @ApiProperty() identifier: string;
  @ApiProperty() companyName: string;
  @ApiPropertyOptional({ nullable: true, type: String }) subdomain: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) customDomain: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) contactEmail: string | null;
  @ApiProperty({ enum: CLIENT_STATUSES }) status: ClientStatus;
  @ApiPropertyOptional({ nullable: true, type: Number }) maxUsers: number | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) maxSandboxes: number | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) provisionedAt: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) lastAccessAt: Date | null;
  @ApiPropertyOptional({ nullable: true, type: String }) lastError: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number, description: 'Database server holding it' })
  serverId: number | null;
  @ApiPropertyOptional({
    nullable: true,
    type: Number,
    description: 'Server it is being moved to (writes answer 503 CLIENT_MOVING meanwhile)',
  })
  movingToServerId: number | null;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export class ClientEnvelopeDto {
  @ApiProperty({ type: ClientDto }) data: ClientDto;
}

export class MigrationStatusEntryDto {
  @ApiPropertyOptional({ nullable: true, type: String }) currentVersion: string | null;
  @ApiProperty() pendingCount: number;
  @ApiProperty({ type: [String] }) pendingVersions: string[];
}

@ApiExtraModels(MigrationStatusEntryDto)
export class MigrationStatusDto {
  @ApiProperty({
    description: 'Keyed by client identifier',
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(MigrationStatusEntryDto) },
  })
  data: Record<string, MigrationStatusEntryDto>;
  @ApiProperty() totalClients: number;
  @ApiProperty() clientsWithPendingMigrations: number;
}
