import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, Min } from 'class-validator';
import { MOVE_MODES, MOVE_STATES, MOVE_STEPS, MoveMode, MoveState, MoveStep } from '../move-jobs';

export class MoveClientDto {
  @ApiProperty({ description: 'Database server to move the client to (active, with room)' })
  @IsInt()
  @Min(1)
  serverId: number;

  @ApiPropertyOptional({
    enum: MOVE_MODES,
    description:
      'online (the default where both servers run with wal_level=logical): the data is copied while the ' +
      'client keeps writing, then writes pause only while the move switches (under a second); copy: writes ' +
      'pause for the whole copy',
  })
  @IsOptional()
  @IsIn(MOVE_MODES)
  mode?: MoveMode;
}

export class MoveJobIdDto {
  @ApiProperty({ description: 'Id of the move job; follow it at GET /api/platform/moves/{jobId}' })
  jobId: string;
}

export class MoveJobStartedDto {
  @ApiProperty({ type: MoveJobIdDto }) data: MoveJobIdDto;
}

export class MoveJobDto {
  @ApiProperty() jobId: string;
  @ApiProperty() clientId: number;
  @ApiProperty() identifier: string;
  @ApiPropertyOptional({ nullable: true, type: Number }) fromServerId: number | null;
  @ApiProperty() toServerId: number;
  @ApiProperty({ enum: MOVE_MODES }) mode: MoveMode;
  @ApiProperty({ enum: MOVE_STATES }) status: MoveState;
  @ApiProperty({
    enum: MOVE_STEPS,
    description:
      'copying: online, the schema then every table while the client writes; copy, writes refused and ' +
      'the database dumped and restored. catching-up (online): the target applies what was written ' +
      'since. switching: writes refused, the last changes applied, sequences set, rows counted, the ' +
      'client switched. finished.',
  })
  step: MoveStep;
  @ApiProperty({
    nullable: true,
    type: Number,
    description:
      'Online: bytes of write-ahead log the target has still to apply (null before replication starts)',
  })
  lagBytes: number | null;
  @ApiProperty({
    nullable: true,
    type: Number,
    description: "How long the client's writes were refused (ms), once the move has switched or given up",
  })
  pauseMs: number | null;
  @ApiPropertyOptional({ description: 'Class of the failure, when failed (details in the server log)' })
  error?: string;
  @ApiPropertyOptional({
    description: 'Done, but a clean-up step after the switch failed (the client is on its new server)',
  })
  warning?: string;
  @ApiProperty({ type: String, format: 'date-time' }) startedAt: string;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'date-time' }) finishedAt: string | null;
  @ApiPropertyOptional({
    enum: ['migration'],
    description: 'Set while queued: the move waits for a migration of the client to finish',
  })
  waitingFor?: 'migration';
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    format: 'date-time',
    description: 'When the former database is dropped',
  })
  sourceDropAt: string | null;
}

export class MoveJobEnvelopeDto {
  @ApiProperty({ type: MoveJobDto }) data: MoveJobDto;
}
