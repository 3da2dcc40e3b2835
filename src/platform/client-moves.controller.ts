import { Body, Controller, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Route } from '../access/route.decorator';
import { IdParam } from '../common/validation/id-param.pipe';
import { PLATFORM_ADMIN } from './clients.controller';
import { ClientMovesService } from './client-moves.service';
import { MoveClientDto, MoveJobEnvelopeDto, MoveJobStartedDto } from './dto/client-move.dto';

/** Moving a client's database (sandboxes included) to another database server. */
@ApiTags('Platform administration')
@Controller('api/platform')
export class ClientMovesController {
  constructor(private readonly moves: ClientMovesService) {}

  @Route('POST', 'clients/:id/move', {
    summary: "Start moving a client's database to another server",
    description:
      'Answers at once with the job id; GET /api/platform/moves/{jobId} shows its progress. Online (the ' +
      'default where both servers run with wal_level=logical) the client keeps writing while its data is ' +
      'copied, and writes answer 503 CLIENT_MOVING only while the move switches (under a second); by copy, ' +
      'writes answer 503 CLIENT_MOVING for the whole copy. Reads go on. While an online move runs, what ' +
      "changes the client's schema (custom tables, sandboxes) answers 503 CLIENT_MOVING. The copy is a new " +
      "database of the move's own name; a move to the server the client is on (under another name) fails before any change.",
    ...PLATFORM_ADMIN,
    status: 202,
    response: MoveJobStartedDto,
    notFound: true,
    badRequest: 'VALIDATION_ERROR: no such server',
    conflict:
      'client not provisioned, already on that server (under any name, as far as the stored identities say) ' +
      'or being moved; server not active or full; mode online where a server runs without wal_level=logical',
    answers: {
      503: 'SERVICE_UNAVAILABLE: the job queue or a database server of the move is unreachable, with Retry-After',
    },
  })
  move(@Param('id', IdParam) id: number, @Body() dto: MoveClientDto) {
    return this.moves.start(id, dto.serverId, dto.mode);
  }

  @Route('GET', 'moves/:jobId', {
    summary: "A client move's progress: step, status, failure",
    ...PLATFORM_ADMIN,
    response: MoveJobEnvelopeDto,
    notFound: 'NOT_FOUND: no such job (or finished more than a week ago)',
    answers: { 503: 'SERVICE_UNAVAILABLE: the job store is unreachable, with Retry-After' },
  })
  get(@Param('jobId') jobId: string) {
    return this.moves.get(jobId);
  }
}
