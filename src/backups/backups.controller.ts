import { Body, Controller, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal } from '../access/access-rules';
import type { Principal } from '../access/principal';
import { Route } from '../access/route.decorator';
import { PageQueryDto } from '../common/pagination/pagination';
import { IdParam } from '../common/validation/id-param.pipe';
import { PageOf } from '../records/record-envelopes';
import { BackupsService } from './backups.service';
import {
  BackupDto,
  BackupEnvelopeDto,
  BackupStartedDto,
  RestoreBackupDto,
  RestoreJobEnvelopeDto,
  RestoreStartedDto,
} from './dto/backup.dto';

/** The platform's SUPER_ADMIN, on the master database. */
const PLATFORM_ADMIN = { minRole: 'SUPER_ADMIN', platform: true } as const;
const QUEUE_DOWN = { 503: 'SERVICE_UNAVAILABLE: the job queue is unreachable, with Retry-After' };

/** Backups of a client's whole database (sandboxes included), restores and hand-over. */
@ApiTags('Platform administration')
@Controller('api/platform')
export class BackupsController {
  constructor(private readonly backups: BackupsService) {}

  @Route('POST', 'clients/:id/backups', {
    summary: "Start a backup of a client's database (every sandbox included)",
    description:
      'Answers at once; GET /api/platform/backups/{backupId} shows its status. The backup is one ' +
      'consistent snapshot, encrypted with the client’s own key.',
    ...PLATFORM_ADMIN,
    status: 202,
    response: BackupStartedDto,
    notFound: true,
    conflict: 'the client is not provisioned',
    answers: QUEUE_DOWN,
  })
  start(@Param('id', IdParam) id: number) {
    return this.backups.start(id);
  }

  @Route('GET', 'clients/:id/backups', {
    summary: "A client's backups, newest first",
    ...PLATFORM_ADMIN,
    response: PageOf(BackupDto),
    notFound: true,
  })
  list(@Param('id', IdParam) id: number, @Query() query: PageQueryDto) {
    return this.backups.list(id, query.page, query.pageSize);
  }

  @Route('GET', 'backups/:id', {
    summary: 'A backup',
    ...PLATFORM_ADMIN,
    response: BackupEnvelopeDto,
    notFound: true,
  })
  get(@Param('id', IdParam) id: number) {
    return this.backups.get(id);
  }

  @Route('DELETE', 'backups/:id', {
    summary: 'Delete a backup and its stored object',
    ...PLATFORM_ADMIN,
    notFound: true,
  })
  remove(@Param('id', IdParam) id: number) {
    return this.backups.remove(id);
  }

  @ApiOkResponse({
    description: 'The archive, as an attachment',
    content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
  })
  @Route('GET', 'backups/:id/download', {
    summary: 'Download a completed backup, decrypted (pg_restore custom format)',
    description:
      'For handing a client its data: the archive `pg_restore` reads, streamed as an attachment. The ' +
      'transfer is cut off (never completed) if the stored object fails its checks.',
    ...PLATFORM_ADMIN,
    notFound: true,
    conflict: 'the backup is not COMPLETED',
  })
  async download(@Param('id', IdParam) id: number, @Res() res: Response) {
    const { name, stream } = await this.backups.download(id);
    res.setHeader('Content-Type', 'application/octet-stream');
    res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  }

  @Route('POST', 'backups/:id/restore', {
    summary: 'Restore a backup in place or into a new client',
    description:
      'The whole backup is checked first (SHA-256, decryption, archive): a bad one answers 422 ' +
      'BACKUP_CORRUPT and nothing changes. In place, the client answers 503 CLIENT_RESTORING (reads ' +
      'too) until it serves the backup’s data. Follow the job at GET /api/platform/restores/{jobId}.',
    ...PLATFORM_ADMIN,
    status: 202,
    response: RestoreStartedDto,
    notFound: true,
    badRequest: true,
    conflict:
      'the backup is not COMPLETED; a restore of the client is under way; identifier or subdomain taken',
    answers: { 422: 'BACKUP_CORRUPT: the backup fails its checks; nothing was changed', ...QUEUE_DOWN },
  })
  restore(
    @Param('id', IdParam) id: number,
    @Body() dto: RestoreBackupDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.backups.restore(id, dto, principal);
  }

  @Route('GET', 'restores/:jobId', {
    summary: "A restore's progress",
    ...PLATFORM_ADMIN,
    response: RestoreJobEnvelopeDto,
    notFound: 'NOT_FOUND: no such job (or finished more than a week ago)',
    answers: { 503: 'SERVICE_UNAVAILABLE: the job store is unreachable, with Retry-After' },
  })
  restoreJob(@Param('jobId') jobId: string) {
    return this.backups.restoreJob(jobId);
  }
}
