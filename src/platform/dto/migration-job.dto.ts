import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BACKGROUND_SKIPS, BackgroundSkip } from '../background-migrator';
import { CLIENT_MIGRATION_STATES, ClientMigrationState, MigrationJobScope } from '../migration-jobs';

export class MigrationJobIdDto {
  @ApiProperty({ description: 'Id of the migration job; follow it at GET /api/platform/migrations/{jobId}' })
  jobId: string;
}

export class MigrationJobStartedDto {
  @ApiProperty({ type: MigrationJobIdDto }) data: MigrationJobIdDto;
}

export class BackgroundMigrationStateDto {
  @ApiProperty({ description: "Schema of the client's database: public (production) or a sandbox" })
  schema: string;
  @ApiProperty({ description: 'Name of the background data migration' }) name: string;
  @ApiProperty({ description: 'Rows its batches have walked past so far, over every run' }) rowsDone: number;
  @ApiProperty({ description: 'Every row was walked: it never runs again in this schema' }) done: boolean;
  @ApiPropertyOptional({
    description:
      'Class of the failure that stopped it (details in the server log); the next run resumes after its last committed batch',
  })
  error?: string;
}

export class ClientMigrationProgressDto {
  @ApiProperty() identifier: string;
  @ApiProperty({
    enum: CLIENT_MIGRATION_STATES,
    description: 'queued → running → done (current, or migrated: see migrationsRun) or failed',
  })
  status: ClientMigrationState;
  @ApiProperty({ type: [String], description: 'Names of the migrations this job ran on the client' })
  migrationsRun: string[];
  @ApiPropertyOptional({
    type: [BackgroundMigrationStateDto],
    description:
      'Background data migrations of the client, per schema, run batch by batch once its schema migrations ran (updated after each batch)',
  })
  backgroundMigrations?: BackgroundMigrationStateDto[];
  @ApiPropertyOptional({
    enum: BACKGROUND_SKIPS,
    description:
      'The background data migrations were left for later (and are tried again by the process): move, the client is being moved; busy, another process runs them now',
  })
  backgroundSkipped?: BackgroundSkip;
  @ApiPropertyOptional({ description: 'Class of the failure, when failed (details in the server log)' })
  error?: string;
  @ApiPropertyOptional({
    enum: ['move'],
    description: 'Set while running: the migration waits for a move of the client to finish',
  })
  waitingFor?: 'move';
  @ApiPropertyOptional({ nullable: true, type: String, format: 'date-time' }) startedAt: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'date-time' }) finishedAt: string | null;
}

export class MigrationJobCountsDto {
  @ApiProperty({ description: 'Clients in the job' }) total: number;
  @ApiProperty() queued: number;
  @ApiProperty() running: number;
  @ApiProperty({ description: 'Finished without error (current or migrated)' }) done: number;
  @ApiProperty() failed: number;
  @ApiProperty({ description: 'Done clients on which at least one migration ran' }) migrated: number;
}

export class MigrationJobDto {
  @ApiProperty() jobId: string;
  @ApiProperty({ enum: ['all', 'client'], description: 'Every provisioned client, or one' })
  scope: MigrationJobScope;
  @ApiProperty({ enum: ['running', 'finished'], description: 'finished once no client is queued or running' })
  status: 'running' | 'finished';
  @ApiProperty({ format: 'date-time' }) startedAt: string;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'date-time' }) finishedAt: string | null;
  @ApiProperty({ type: MigrationJobCountsDto }) counts: MigrationJobCountsDto;
  @ApiProperty({ type: [ClientMigrationProgressDto], description: 'One entry per client, by identifier' })
  clients: ClientMigrationProgressDto[];
}

export class MigrationJobEnvelopeDto {
  @ApiProperty({ type: MigrationJobDto }) data: MigrationJobDto;
}
