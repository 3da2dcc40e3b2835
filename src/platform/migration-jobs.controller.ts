import { Controller, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Route } from '../access/route.decorator';
import { ClientsService } from './clients.service';
import { PLATFORM_ADMIN } from './clients.controller';
import { MigrationJobEnvelopeDto } from './dto/migration-job.dto';

/** Migration jobs started by POST /api/platform/clients/migrate and /{id}/migrate. */
@ApiTags('Platform administration')
@Controller('api/platform/migrations')
export class MigrationJobsController {
  constructor(private readonly clients: ClientsService) {}

  @Route('GET', ':jobId', {
    summary: "A migration job's progress: status per client, counts, start and end",
    ...PLATFORM_ADMIN,
    response: MigrationJobEnvelopeDto,
    notFound: 'NOT_FOUND: no such job (or finished more than a week ago)',
    answers: { 503: 'SERVICE_UNAVAILABLE: the job store is unreachable, with Retry-After' },
  })
  get(@Param('jobId') jobId: string) {
    return this.clients.migrationJob(jobId);
  }
}
