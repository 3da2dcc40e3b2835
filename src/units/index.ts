// The public face of units: other features import from this file only.
export { UnitRecordDto, UnitRecordInputDto, UnitRecordQueryDto } from './dto/unit-record.dto';
export { Unit } from './entities/unit.entity';
export { UnitRecordsService, unitRecordKind } from './unit-records.service';
