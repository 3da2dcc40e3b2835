import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, Min } from 'class-validator';
import { MOVE_STATES, MOVE_STEPS, MoveState, MoveStep } from '../move-jobs';

export class MoveClientDto {
  @ApiProperty({ description: 'Database server to move the client to (active, with room)' })
  @IsInt()
  @Min(1)
  serverId: number;
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
  @ApiProperty({ enum: MOVE_STATES }) status: MoveState;
  @ApiProperty({
    enum: MOVE_STEPS,
    description:
      'pausing: writes refused, sessions drained; copying: pg_dump/pg_restore; switching: replicas told',
  })
  step: MoveStep;
  @ApiPropertyOptional({ description: 'Class of the failure, when failed (details in the server log)' })
  error?: string;
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
