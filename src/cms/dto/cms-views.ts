import { ApiProperty } from '@nestjs/swagger';

const DEFINITION_EXAMPLE = {
  kind: 'collectionType',
  collectionName: 'turbines',
  info: { singularName: 'turbine', pluralName: 'turbines', displayName: 'Turbines' },
  options: { draftAndPublish: true, companyScoped: true },
  attributes: {
    name: { type: 'string', required: true, maxLength: 80 },
    ratedMw: { type: 'decimal', min: 0 },
  },
};

/** A content type definition (schema for Swagger; the shape is checked by the service). */
export class ContentTypeDefinitionDto {
  @ApiProperty({ enum: ['collectionType'], required: false }) kind?: string;
  @ApiProperty({ pattern: '^[a-z][a-z0-9_]{0,39}$', example: 'turbines' }) collectionName: string;
  @ApiProperty({ required: false, example: DEFINITION_EXAMPLE.info }) info?: Record<string, string>;
  @ApiProperty({
    required: false,
    example: DEFINITION_EXAMPLE.options,
    description:
      'draftAndPublish (default false); companyScoped: records belong to a company (default true for a new type, the stored value on a PUT)',
  })
  options?: {
    draftAndPublish?: boolean;
    companyScoped?: boolean;
  };
  @ApiProperty({
    description:
      'Attribute name to field definition (type, required, unique, private, default, minLength, maxLength, regex, min, max, enum, relation, target, multiple, allowedTypes)',
    example: DEFINITION_EXAMPLE.attributes,
  })
  attributes: Record<string, Record<string, unknown>>;
}

export class ContentTypeEnvelopeDto {
  @ApiProperty({ type: ContentTypeDefinitionDto }) data: ContentTypeDefinitionDto;
}

export class ContentTypeListDto {
  @ApiProperty({ type: [ContentTypeDefinitionDto] }) data: ContentTypeDefinitionDto[];
}

export class ContentTypeCreatedDto {
  @ApiProperty() success: boolean;
  @ApiProperty({ example: 'Content type "turbines" created' }) message: string;
  @ApiProperty({ example: 'turbines' }) collectionName: string;
  @ApiProperty({ type: ContentTypeDefinitionDto }) schema: ContentTypeDefinitionDto;
}

export class SyncReportDto {
  @ApiProperty() success: boolean;
  @ApiProperty({ type: [String], example: ['cms_turbines.serial: column created'] }) successes: string[];
  @ApiProperty({ type: [String] }) errors: string[];
  @ApiProperty({
    type: [String],
    example: ['cms_turbines.legacy: column is not named by the definition (kept)'],
  })
  warnings: string[];
  @ApiProperty({ type: [String], description: 'Collections already in step', example: ['turbines'] })
  skipped: string[];
}

export class OpenApiFragmentDto {
  @ApiProperty({
    description: "OpenAPI 3 document of the type's record endpoints",
    example: { openapi: '3.0.3', paths: {} },
  })
  data: Record<string, unknown>;
}

const RECORD_EXAMPLE = {
  id: 1,
  name: 'T-1',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  createdById: 1,
  updatedById: 1,
};

export class CmsRecordEnvelopeDto {
  @ApiProperty({
    description: 'The record: its attributes (private ones left out) and system fields',
    example: RECORD_EXAMPLE,
  })
  data: Record<string, unknown>;
}

class PaginationDto {
  @ApiProperty({ nullable: true, type: Number, description: 'null on a page read by cursor' }) page:
    number | null;
  @ApiProperty() pageSize: number;
  @ApiProperty() pageCount: number;
  @ApiProperty() total: number;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Cursor of the next page (`after=`), null on the last page',
  })
  nextCursor: string | null;
}

class PageMetaDto {
  @ApiProperty({ type: PaginationDto }) pagination: PaginationDto;
}

export class CmsRecordPageDto {
  @ApiProperty({ type: 'array', items: { type: 'object' }, example: [RECORD_EXAMPLE] }) data: Record<
    string,
    unknown
  >[];
  @ApiProperty({ type: PageMetaDto }) meta: PageMetaDto;
}

export class BulkDeleteDto {
  @ApiProperty({ type: [Number], example: [1, 2, 3], description: 'Record ids (1 to 1000)' }) ids: number[];
}
