import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsClientIdentifier, IsSubdomain } from '../../tenancy/client-identifier';
import { IsEmail, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { BACKUP_KINDS, BACKUP_STATUSES, BackupKind, BackupStatus } from '../backups.repository';
import { RESTORE_STATES, RESTORE_TARGETS, RestoreState, RestoreTarget } from '../restore-jobs';

export class BackupDto {
  @ApiProperty() id: number;
  @ApiProperty() clientId: number;
  @ApiProperty({ enum: BACKUP_KINDS, description: 'MANUAL (POST) or SCHEDULED (BACKUP_SCHEDULE)' })
  kind: BackupKind;
  @ApiProperty({ enum: BACKUP_STATUSES }) status: BackupStatus;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'When it began running' })
  startedAt: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) finishedAt: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'Bytes of the stored (encrypted) object' })
  sizeBytes: number | null;
  @ApiProperty({ nullable: true, type: String, description: 'SHA-256 (hex) of the stored bytes' })
  sha256: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Why it failed (details in the server log)' })
  error: string | null;
}

export class BackupEnvelopeDto {
  @ApiProperty({ type: BackupDto }) data: BackupDto;
}

export class BackupStartedViewDto {
  @ApiProperty({ description: 'The backup; GET /api/platform/backups/{backupId} shows its status' })
  backupId: number;
  @ApiProperty({ description: 'The queued job running it' }) jobId: string;
}

export class BackupStartedDto {
  @ApiProperty({ type: BackupStartedViewDto }) data: BackupStartedViewDto;
}

export class RestoreBackupDto {
  @ApiProperty({
    enum: RESTORE_TARGETS,
    description: "in-place: the backup's client gets the backup's data; new-client: a new client with it",
  })
  @IsIn(RESTORE_TARGETS)
  target: RestoreTarget;

  @ApiPropertyOptional({ description: 'new-client: its identifier (unique slug)', example: 'acme-copy' })
  @ValidateIf((o: RestoreBackupDto) => o.target === 'new-client')
  @IsClientIdentifier()
  identifier?: string;

  @ApiPropertyOptional({ description: 'new-client: its subdomain', example: 'acme-copy' })
  @IsOptional()
  @IsSubdomain()
  subdomain?: string;

  @ApiPropertyOptional({ description: 'new-client: its display name', example: 'Acme Energy (copy)' })
  @ValidateIf((o: RestoreBackupDto) => o.target === 'new-client')
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ description: 'new-client: its contact e-mail', example: 'it@acme.com' })
  @ValidateIf((o: RestoreBackupDto) => o.target === 'new-client')
  @IsEmail()
  @MaxLength(254)
  contactEmail?: string;
}

export class RestoreStartedViewDto {
  @ApiProperty({ description: 'Follow it at GET /api/platform/restores/{jobId}' }) jobId: string;
}

export class RestoreStartedDto {
  @ApiProperty({ type: RestoreStartedViewDto }) data: RestoreStartedViewDto;
}

export class RestoreJobDto {
  @ApiProperty() jobId: string;
  @ApiProperty() backupId: number;
  @ApiProperty({ description: "The client restored into: the backup's own (in place) or the new one" })
  clientId: number;
  @ApiProperty({ enum: RESTORE_TARGETS }) target: RestoreTarget;
  @ApiProperty({ enum: RESTORE_STATES }) status: RestoreState;
  @ApiPropertyOptional({ description: 'Why it failed, when failed (details in the server log)' })
  error?: string;
  @ApiProperty({ type: String, format: 'date-time' }) startedAt: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) finishedAt: string | null;
}

export class RestoreJobEnvelopeDto {
  @ApiProperty({ type: RestoreJobDto }) data: RestoreJobDto;
}
