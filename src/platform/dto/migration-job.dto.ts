import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CLIENT_MIGRATION_STATES, ClientMigrationState, MigrationJobScope } from '../migration-jobs';

export class MigrationJobIdDto {
  @ApiProperty({ description: 'Id of the migration job; follow it at GET /api/platform/migrations/{jobId}' })
  jobId: string;
}

export class MigrationJobStartedDto {
  @ApiProperty({ type: MigrationJobIdDto }) data: MigrationJobIdDto;
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
