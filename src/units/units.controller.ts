import { RecordsController } from '../records/records.controller';
import { CreateUnitDto, UnitDto, UnitQueryDto, UpdateUnitDto } from './dto/unit.dto';
import { UnitsService } from './units.service';

/** /api/units: list, get, create, update and delete. */
export class UnitsController extends RecordsController(UnitsService, {
  path: 'api/units',
  tag: 'Assets: units',
  resource: 'units',
  one: 'unit',
  many: 'units',
  view: UnitDto,
  create: CreateUnitDto,
  update: UpdateUnitDto,
  query: UnitQueryDto,
  summaries: { create: 'Create a unit in the caller’s company' },
}) {}
