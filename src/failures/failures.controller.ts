import { RecordsController } from '../records/records.controller';
import { CreateFailureDto, FailureDto, FailureQueryDto, UpdateFailureDto } from './dto/failure.dto';
import { FailuresService } from './failures.service';

/** /api/failures: list, get, record, update and delete, with the units permissions. */
export class FailuresController extends RecordsController(FailuresService, {
  path: 'api/failures',
  tag: 'Assets: failures',
  resource: 'units',
  one: 'failure',
  many: 'failures',
  view: FailureDto,
  create: CreateFailureDto,
  update: UpdateFailureDto,
  query: FailureQueryDto,
  summaries: { create: 'Record a failure of a unit' },
}) {}
