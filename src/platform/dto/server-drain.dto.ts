import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { DRAIN_STATES, DrainState } from '../server-drains';

export class DrainDatabaseServerDto {
  @ApiPropertyOptional({
    default: false,
    description:
      'Also move every client of the server to the other active servers, one at a time, in the ' +
      'background (answer 202 with the progress). Without it the server only stops taking new clients',
  })
  @IsOptional()
  @IsBoolean()
  moveClients?: boolean;
}

export class ServerDrainFailureDto {
  @ApiProperty() clientId: number;
  @ApiProperty() identifier: string;
  @ApiProperty({ description: 'Why it was not moved (no server with room, the move refused or failed)' })
  error: string;
}

export class ServerDrainDto {
  @ApiProperty() serverId: number;
  @ApiProperty({ enum: [true] }) moveClients: true;
  @ApiProperty({
    enum: DRAIN_STATES,
    description:
      'running; done: every client moved; failed: finished with clients not moved (see failures), or stopped',
  })
  status: DrainState;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Clients moved, failed and still to move' })
  total: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) moved: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) failed: number;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Clients still to move, the one being moved included',
  })
  remaining: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The client being moved' })
  currentClientId: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "Its move's job (GET /api/platform/moves/{jobId})",
  })
  currentJobId: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) startedAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finishedAt: string | null;
  @ApiProperty({ type: [ServerDrainFailureDto] }) failures: ServerDrainFailureDto[];
}

export class ServerDrainEnvelopeDto {
  @ApiProperty({ type: ServerDrainDto }) data: ServerDrainDto;
}
