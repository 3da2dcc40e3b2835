import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsIn,
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
import { SERVER_STATES, ServerState } from '../../tenancy/entities/database-server.entity';

const HOST =
  /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const ROLE = /^[a-z_][a-z0-9_]{0,62}$/;

/** The pooler's host and port go together: each is checked when either is given (not null). */
const PoolerPair = () =>
  ValidateIf((o: { poolerHost?: string | null; poolerPort?: number | null }) => {
    return (
      (o.poolerHost !== undefined && o.poolerHost !== null) ||
      (o.poolerPort !== undefined && o.poolerPort !== null)
    );
  });

/** The pooler's host: checked like `host`, given with poolerPort. */
const PoolerHostField = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      nullable: true,
      description:
        "Host name or IPv4 address of the transaction pooler (PgBouncer) in front of it: its clients' " +
        'application pools connect there, administrative work never. With poolerPort; null clears both. ' +
        'Never answered',
      example: 'pgbouncer-eu-2.internal',
    }),
    PoolerPair(),
    IsString({ message: 'poolerHost must be given with poolerPort' }),
    Matches(HOST, { message: 'poolerHost must be a host name or an IPv4 address' }),
  );

const PoolerPortField = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      nullable: true,
      minimum: 1,
      maximum: 65535,
      description: 'Port of poolerHost (with it; null clears both). Never answered',
      example: 6432,
    }),
    PoolerPair(),
    IsInt({ message: 'poolerPort must be given with poolerHost, as an integer' }),
    Min(1),
    Max(65535),
  );

export class CreateDatabaseServerDto {
  @ApiProperty({ description: 'Unique display name', example: 'pg-eu-2' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name: string;

  @ApiProperty({ description: 'Host name or IPv4 address (never answered)', example: 'pg-eu-2.internal' })
  @IsString()
  @Matches(HOST, { message: 'host must be a host name or an IPv4 address' })
  host: string;

  @ApiProperty({ minimum: 1, maximum: 65535, example: 5432 })
  @IsInt()
  @Min(1)
  @Max(65535)
  port: number;

  @PoolerHostField()
  poolerHost?: string | null;

  @PoolerPortField()
  poolerPort?: number | null;

  @ApiProperty({ description: 'Administrative login: creates databases and roles (never answered)' })
  @IsString()
  @Matches(ROLE, { message: 'adminUsername must be a PostgreSQL role name' })
  adminUsername: string;

  @ApiPropertyOptional({ description: 'Stored encrypted; never answered' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  adminPassword?: string;

  @ApiPropertyOptional({ description: 'Client databases it may hold', default: 1000, minimum: 0 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  maxClients?: number;

  @ApiPropertyOptional({
    description: "Its max_connections (or its pooler's pool)",
    default: 100,
    minimum: 1,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  maxConnections?: number;

  @ApiPropertyOptional({ enum: SERVER_STATES, default: 'active' })
  @IsOptional()
  @IsIn(SERVER_STATES)
  state?: ServerState;
}

export class UpdateDatabaseServerDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name?: string;

  @PoolerHostField()
  poolerHost?: string | null;

  @PoolerPortField()
  poolerPort?: number | null;

  @ApiPropertyOptional({ description: 'Never answered' })
  @IsOptional()
  @IsString()
  @Matches(ROLE, { message: 'adminUsername must be a PostgreSQL role name' })
  adminUsername?: string;

  @ApiPropertyOptional({ description: 'Stored encrypted; never answered' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  adminPassword?: string;

  @ApiPropertyOptional({ minimum: 0 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  maxClients?: number;

  @ApiPropertyOptional({ minimum: 1 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  maxConnections?: number;

  @ApiPropertyOptional({ enum: SERVER_STATES })
  @IsOptional()
  @IsIn(SERVER_STATES)
  state?: ServerState;
}

export class DatabaseServerDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({
    enum: SERVER_STATES,
    description: 'active: takes new clients; draining, disabled: takes none',
  })
  state: ServerState;
  @ApiProperty() maxClients: number;
  @ApiProperty() maxConnections: number;
  @ApiProperty({
    description: "True when a pooler stands in front of it (its clients' application pools connect there)",
  })
  pooled: boolean;
  @ApiProperty({ description: 'Clients placed on it (deleted ones excluded)' }) clients: number;
  @ApiProperty({
    type: Boolean,
    nullable: true,
    description:
      'True when it runs with wal_level = logical (it can take part in an online move); read through its ' +
      'administrative login when it is registered, updated or identified again. Null when never read',
  })
  logicalReplication: boolean | null;
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    nullable: true,
    description:
      "Summed size in bytes of its clients' databases, read live; null when the server did not answer in time",
    example: 52_428_800,
  })
  totalSizeBytes: number | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'Client sessions open on the server right now, read live; null when it did not answer in time',
    example: 12,
  })
  connections: number | null;
  @ApiProperty({ description: 'True for the server of MULTITENANCY_DB_HOST:MULTITENANCY_DB_PORT' })
  isDefault: boolean;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export class DatabaseServerEnvelopeDto {
  @ApiProperty({ type: DatabaseServerDto }) data: DatabaseServerDto;
}

export class DatabaseServerListDto {
  @ApiProperty({ type: [DatabaseServerDto] }) data: DatabaseServerDto[];
}
