import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated } from '../access/access-rules';
import { PageQueryDto } from '../common/pagination/pagination';
import { ClientsService } from './clients.service';
import { ClientEnvelopeDto, CreateClientDto, MigrationStatusDto, UpdateClientDto } from './dto/client.dto';
import { IdParam } from '../common/validation/id-param.pipe';

/** Platform administration: SUPER_ADMIN on the master database. `/admin/clients` is an alias. */
@ApiTags('Platform administration')
@Authenticated({ minRole: 'SUPER_ADMIN', platform: true })
@Controller(['api/platform/clients', 'admin/clients'])
export class ClientsController {
  constructor(private readonly clients: ClientsService) {}

  @Post()
  @ApiOperation({ summary: 'Create a client (PENDING); returns at once' })
  @ApiOkResponse({ type: ClientEnvelopeDto })
  @ApiConflictResponse({ description: 'identifier, subdomain or custom domain taken' })
  create(@Body() dto: CreateClientDto) {
    return this.clients.create(dto);
  }

  @Get()
  @ApiOperation({ summary: 'List clients (deleted ones excluded)' })
  list(@Query() query: PageQueryDto) {
    return this.clients.list(query.page, query.pageSize);
  }

  @Get('active')
  @ApiOperation({ summary: 'List active clients' })
  listActive(@Query() query: PageQueryDto) {
    return this.clients.list(query.page, query.pageSize, ['ACTIVE']);
  }

  @Get('migration-status')
  @ApiOperation({ summary: 'Schema version and pending migrations of every provisioned client' })
  @ApiOkResponse({ type: MigrationStatusDto })
  migrationStatus() {
    return this.clients.migrationStatus();
  }

  @Post('migrate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Run pending migrations on every active client database' })
  migrateAll() {
    return this.clients.migrateAll();
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a client' })
  @ApiOkResponse({ type: ClientEnvelopeDto })
  @ApiNotFoundResponse()
  get(@Param('id', IdParam) id: number) {
    return this.clients.get(id);
  }

  @Put(':id')
  @ApiOperation({ summary: 'Update a client (only the fields given)' })
  @ApiOkResponse({ type: ClientEnvelopeDto })
  update(@Param('id', IdParam) id: number, @Body() dto: UpdateClientDto) {
    return this.clients.update(id, dto);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Soft delete (status DELETED); the database is kept' })
  @ApiOkResponse({ type: ClientEnvelopeDto })
  remove(@Param('id', IdParam) id: number) {
    return this.clients.remove(id);
  }

  @Post(':id/provision')
  @HttpCode(202)
  @ApiOperation({ summary: 'Start asynchronous provisioning (PENDING → PROVISIONING → ACTIVE)' })
  @ApiAcceptedResponse({ type: ClientEnvelopeDto })
  @ApiConflictResponse({ description: 'Client is not PENDING' })
  provision(@Param('id', IdParam) id: number) {
    return this.clients.provision(id);
  }

  @Post(':id/suspend')
  @HttpCode(200)
  @ApiOperation({ summary: 'Suspend: every call of the client is refused' })
  @ApiOkResponse({ type: ClientEnvelopeDto })
  suspend(@Param('id', IdParam) id: number) {
    return this.clients.suspend(id);
  }

  @Post(':id/activate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Reactivate a suspended client' })
  @ApiOkResponse({ type: ClientEnvelopeDto })
  activate(@Param('id', IdParam) id: number) {
    return this.clients.activate(id);
  }

  @Post(':id/migrate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Run pending migrations on one client database (and its sandboxes)' })
  migrateOne(@Param('id', IdParam) id: number) {
    return this.clients.migrateOne(id);
  }
}
