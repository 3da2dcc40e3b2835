import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class MasterMigrationsDto {
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Newest master migration applied to the master database (null before the first)',
    example: 'DatabaseServerIdentity1736000000000',
  })
  applied: string | null;
  @ApiProperty({
    description: "This build's newest master migration; `applied` is newer while a newer release rolls out",
    example: 'DatabaseServerIdentity1736000000000',
  })
  expected: string;
}

export class ClientMigrationCountsDto {
  @ApiProperty({ description: "Clients recorded at this build's newest client migration, or a newer one" })
  current: number;
  @ApiProperty({ description: 'Clients recorded at an older client migration, or none' })
  behind: number;
  @ApiProperty({ description: 'Clients no migration job nor start-up check has recorded yet' })
  unknown: number;
}

export class ClientMigrationsDto {
  @ApiProperty({
    description: "This build's newest client migration",
    example: 'DocumentSearchLevels1735200000000',
  })
  expected: string;
  @ApiProperty({
    type: ClientMigrationCountsDto,
    description:
      'Active and suspended clients by the version their last migration job or start-up check recorded (no client database is asked)',
  })
  clients: ClientMigrationCountsDto;
}

export class MigrationsInfoDto {
  @ApiProperty({ type: MasterMigrationsDto }) master: MasterMigrationsDto;
  @ApiProperty({ type: ClientMigrationsDto }) client: ClientMigrationsDto;
}

/** The answer of `GET /management/info`. */
export class ReleaseInfoDto {
  @ApiProperty({ description: 'Release of the running build (semantic version)', example: '1.0.0' })
  version: string;
  @ApiPropertyOptional({
    description: 'Commit the image was built from, when the build recorded it',
    example: '1f7d995c0a4e2b8d9f3a6c1e5b7d2f4a8c0e6b3d',
  })
  commit?: string;
  @ApiProperty({ type: MigrationsInfoDto }) migrations: MigrationsInfoDto;
}
