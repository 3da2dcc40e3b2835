import { Body, Controller, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Route } from '../access/route.decorator';
import { PageQueryDto } from '../common/pagination/pagination';
import { ClientsService } from './clients.service';
import { PageOf } from '../records/record-envelopes';
import {
  ClientDto,
  ClientEnvelopeDto,
  CreateClientDto,
  MigrationStatusDto,
  UpdateClientDto,
} from './dto/client.dto';
import { IdParam } from '../common/validation/id-param.pipe';
import { MigrationJobStartedDto } from './dto/migration-job.dto';

export const PLATFORM_ADMIN = { minRole: 'SUPER_ADMIN', platform: true } as const;

/** Platform administration: SUPER_ADMIN on the master database. `/admin/clients` is an alias. */
@ApiTags('Platform administration')
@Controller(['api/platform/clients', 'admin/clients'])
export class ClientsController {
  constructor(private readonly clients: ClientsService) {}

  @Route('POST', '', {
    summary: 'Create a client (PENDING); returns at once',
    ...PLATFORM_ADMIN,
    response: ClientEnvelopeDto,
    conflict: 'identifier, subdomain or custom domain taken',
  })
  create(@Body() dto: CreateClientDto) {
    return this.clients.create(dto);
  }

  @Route('GET', '', {
    summary: 'List clients (deleted ones excluded)',
    ...PLATFORM_ADMIN,
    response: PageOf(ClientDto),
  })
  list(@Query() query: PageQueryDto) {
    return this.clients.list(query.page, query.pageSize);
  }

  @Route('GET', 'active', { summary: 'List active clients', ...PLATFORM_ADMIN, response: PageOf(ClientDto) })
  listActive(@Query() query: PageQueryDto) {
    return this.clients.list(query.page, query.pageSize, ['ACTIVE']);
  }

  @Route('GET', 'migration-status', {
    summary: 'Schema version and pending migrations of every provisioned client',
    description: "From each production schema's newest recorded migration, read in parallel.",
    ...PLATFORM_ADMIN,
    response: MigrationStatusDto,
  })
  migrationStatus() {
    return this.clients.migrationStatus();
  }

  @Route('POST', 'migrate', {
    summary: 'Start a migration job over every provisioned client database (and their sandboxes)',
    description:
      'Answers at once with the job id; GET /api/platform/migrations/{jobId} shows its progress per client.',
    ...PLATFORM_ADMIN,
    status: 202,
    response: MigrationJobStartedDto,
    answers: { 503: 'SERVICE_UNAVAILABLE: the job queue is unreachable, with Retry-After' },
  })
  migrateAll() {
    return this.clients.migrateAll();
  }

  @Route('GET', ':id', {
    summary: 'Get a client',
    ...PLATFORM_ADMIN,
    response: ClientEnvelopeDto,
    notFound: true,
  })
  get(@Param('id', IdParam) id: number) {
    return this.clients.get(id);
  }

  @Route('PUT', ':id', {
    summary: 'Update a client (only the fields given)',
    ...PLATFORM_ADMIN,
    response: ClientEnvelopeDto,
  })
  update(@Param('id', IdParam) id: number, @Body() dto: UpdateClientDto) {
    return this.clients.update(id, dto);
  }

  @Route('DELETE', ':id', {
    summary: 'Soft delete (status DELETED); the database is kept',
    ...PLATFORM_ADMIN,
    response: ClientEnvelopeDto,
    status: 200,
  })
  remove(@Param('id', IdParam) id: number) {
    return this.clients.remove(id);
  }

  @Route('POST', ':id/provision', {
    summary: 'Start asynchronous provisioning (PENDING → PROVISIONING → ACTIVE)',
    ...PLATFORM_ADMIN,
    response: ClientEnvelopeDto,
    status: 202,
    conflict: 'Client is not PENDING',
  })
  provision(@Param('id', IdParam) id: number) {
    return this.clients.provision(id);
  }

  @Route('POST', ':id/suspend', {
    summary: 'Suspend: every call of the client is refused',
    ...PLATFORM_ADMIN,
    response: ClientEnvelopeDto,
  })
  suspend(@Param('id', IdParam) id: number) {
    return this.clients.suspend(id);
  }

  @Route('POST', ':id/activate', {
    summary: 'Reactivate a suspended client',
    ...PLATFORM_ADMIN,
    response: ClientEnvelopeDto,
  })
  activate(@Param('id', IdParam) id: number) {
    return this.clients.activate(id);
  }

  @Route('POST', ':id/migrate', {
    summary: 'Start a migration job over one client database (and its sandboxes)',
    description: 'Answers at once with the job id; GET /api/platform/migrations/{jobId} shows its progress.',
    ...PLATFORM_ADMIN,
    status: 202,
    response: MigrationJobStartedDto,
    notFound: true,
    conflict: 'Client is not ACTIVE or SUSPENDED',
    answers: { 503: 'SERVICE_UNAVAILABLE: the job queue is unreachable, with Retry-After' },
  })
  migrateOne(@Param('id', IdParam) id: number) {
    return this.clients.migrateOne(id);
  }
}
