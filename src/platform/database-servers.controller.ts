import { Body, Controller, Param, Res } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Route } from '../access/route.decorator';
import { IdParam } from '../common/validation/id-param.pipe';
import { PLATFORM_ADMIN } from './clients.controller';
import { DatabaseServersService } from './database-servers.service';
import { DrainDatabaseServerDto, ServerDrainEnvelopeDto } from './dto/server-drain.dto';
import { ServerDrainsService } from './server-drains.service';
import {
  CreateDatabaseServerDto,
  DatabaseServerEnvelopeDto,
  DatabaseServerListDto,
  UpdateDatabaseServerDto,
} from './dto/database-server.dto';

/** The database servers client databases are placed on. Addresses and logins are never answered. */
@ApiTags('Platform administration')
@Controller('api/platform/database-servers')
export class DatabaseServersController {
  constructor(
    private readonly servers: DatabaseServersService,
    private readonly drains: ServerDrainsService,
  ) {}

  @Route('GET', '', {
    summary: 'List database servers with their clients and capacity',
    description:
      'totalSizeBytes and connections are read live from every server at once, over its administrative ' +
      'login; a server that does not answer within 2 s shows them as null, and the list never fails for it.',
    ...PLATFORM_ADMIN,
    response: DatabaseServerListDto,
  })
  list() {
    return this.servers.list();
  }

  @Route('POST', '', {
    summary: 'Register a database server',
    description:
      'The administrative password is stored encrypted. With poolerHost and poolerPort, client ' +
      'application pools connect through that pooler. Host, port, pooler address and login are never answered. ' +
      'The server is identified through its administrative login (its system identifier and port): one ' +
      'server cannot be registered twice, under another host name, address or pooler.',
    ...PLATFORM_ADMIN,
    response: DatabaseServerEnvelopeDto,
    badRequest: 'VALIDATION_ERROR; BAD_REQUEST when the server refuses the administrative login',
    conflict: 'name, address or server (under another address) already registered',
    answers: { 503: 'SERVICE_UNAVAILABLE: the server cannot be reached to identify it, with Retry-After' },
  })
  create(@Body() dto: CreateDatabaseServerDto) {
    return this.servers.create(dto);
  }

  @Route('GET', ':id', {
    summary: 'Get a database server',
    description:
      'totalSizeBytes and connections are read live over its administrative login (null when it does not ' +
      'answer within 2 s).',
    ...PLATFORM_ADMIN,
    response: DatabaseServerEnvelopeDto,
    notFound: true,
  })
  get(@Param('id', IdParam) id: number) {
    return this.servers.get(id);
  }

  @Route('PUT', ':id', {
    summary: 'Update a database server (only the fields given; its address cannot change)',
    description:
      'poolerHost and poolerPort are set together; null clears the pooler. The open client pools of ' +
      'the server close, and the next ones connect to its new address.',
    ...PLATFORM_ADMIN,
    response: DatabaseServerEnvelopeDto,
    notFound: true,
    badRequest: 'VALIDATION_ERROR; BAD_REQUEST when the server refuses a new administrative login',
    conflict: 'name taken, or a new login reaches another registered server',
  })
  update(@Param('id', IdParam) id: number, @Body() dto: UpdateDatabaseServerDto) {
    return this.servers.update(id, dto);
  }

  @Route('POST', ':id/drain', {
    summary: 'Drain a database server: it takes no new client; with moveClients, its clients are moved off',
    description:
      'Without a body (or with moveClients false) the server keeps its clients and takes no new one: ' +
      'answers 200 with the server. With moveClients true it is set draining too, and its clients are ' +
      'then moved in the background, one at a time, each to the active server provisioning would place ' +
      'a new client on; a client that cannot be placed or moved is recorded as failed and the drain goes ' +
      'on. Answers 202 with the progress, which GET on the same path answers afterwards.',
    ...PLATFORM_ADMIN,
    response: DatabaseServerEnvelopeDto,
    responseDescription: 'Drained (without moveClients): the server',
    status: 200,
    notFound: true,
    badRequest: true,
    conflict: 'a drain with moves of this server is running',
    answers: {
      202: { description: 'Drain with moves started: its progress', type: ServerDrainEnvelopeDto },
      503: 'SERVICE_UNAVAILABLE: the job store is unreachable, with Retry-After',
    },
  })
  @ApiBody({ type: DrainDatabaseServerDto, required: false })
  async drain(
    @Param('id', IdParam) id: number,
    @Body() dto: DrainDatabaseServerDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    if (!dto?.moveClients) return this.servers.drain(id);
    const started = await this.drains.start(id);
    res.status(202);
    return started;
  }

  @Route('GET', ':id/drain', {
    summary: "A database server's last drain with moves: clients moved, failed and left",
    ...PLATFORM_ADMIN,
    response: ServerDrainEnvelopeDto,
    notFound: 'NOT_FOUND: no such server, or it never had a drain with moves',
    answers: { 503: 'SERVICE_UNAVAILABLE: the job store is unreachable, with Retry-After' },
  })
  drainProgress(@Param('id', IdParam) id: number) {
    return this.drains.get(id);
  }
}
