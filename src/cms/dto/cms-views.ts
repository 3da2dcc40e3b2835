import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { ANY_JSON_VALUE, OpenSchema } from '../../common/openapi/schemas';
import { PageMetaDto } from '../../common/pagination/pagination.dto';
import { FIELD_TYPES, RELATION_KINDS } from '../content-type.types';

const DEFINITION_EXAMPLE = {
  kind: 'collectionType',
  collectionName: 'turbines',
  info: { singularName: 'turbine', pluralName: 'turbines', displayName: 'Turbines' },
  options: { draftAndPublish: true },
  attributes: {
    name: { type: 'string', required: true, maxLength: 80 },
    ratedMw: { type: 'decimal', min: 0 },
  },
};

export class ContentTypeInfoDto {
  @ApiProperty({ example: 'turbine' }) singularName: string;
  @ApiProperty({ example: 'turbines' }) pluralName: string;
  @ApiProperty({ example: 'Turbines' }) displayName: string;
  @ApiPropertyOptional() description?: string;
}

export class ContentTypeOptionsDto {
  @ApiPropertyOptional({ description: 'Records are drafts until published' }) draftAndPublish?: boolean;
}

/** One attribute of a content type (docs/custom-tables.md lists which options each type takes). */
export class AttributeDefinitionDto {
  @ApiProperty({ enum: FIELD_TYPES }) type: string;
  @ApiPropertyOptional() required?: boolean;
  @ApiPropertyOptional() unique?: boolean;
  @ApiPropertyOptional({ description: 'Left out of answers' }) private?: boolean;
  @ApiPropertyOptional({ ...ANY_JSON_VALUE, description: 'Value of a record that does not give one' })
  default?: unknown;
  @ApiPropertyOptional({ type: 'integer', minimum: 0 }) minLength?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 0 }) maxLength?: number;
  @ApiPropertyOptional({ description: 'Pattern a text value must match' }) regex?: string;
  @ApiPropertyOptional() min?: number;
  @ApiPropertyOptional() max?: number;
  @ApiPropertyOptional({ type: [String], description: 'Values of an enumeration' }) enum?: string[];
  @ApiPropertyOptional({ enum: RELATION_KINDS }) relation?: string;
  @ApiPropertyOptional({ description: 'Collection a relation points to' }) target?: string;
  @ApiPropertyOptional({ description: 'A media field holding several files' }) multiple?: boolean;
  @ApiPropertyOptional({ type: 'array', items: { type: 'string', enum: ['images', 'files'] } })
  allowedTypes?: string[];
}

/** A content type definition (schema for Swagger; the shape is checked by the service). */
@ApiExtraModels(AttributeDefinitionDto)
export class ContentTypeDefinitionDto {
  @ApiProperty({ enum: ['collectionType'], required: false }) kind?: string;
  @ApiProperty({ pattern: '^[a-z][a-z0-9_]{0,39}$', example: 'turbines' }) collectionName: string;
  @ApiProperty({ type: ContentTypeInfoDto, required: false }) info?: ContentTypeInfoDto;
  @ApiProperty({ type: ContentTypeOptionsDto, required: false }) options?: ContentTypeOptionsDto;
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(AttributeDefinitionDto) },
    description: 'Attribute name to field definition',
    example: DEFINITION_EXAMPLE.attributes,
  })
  attributes: Record<string, AttributeDefinitionDto>;
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
    type: 'object',
    additionalProperties: true,
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

/** A custom-table record: its system fields, and its attributes (private ones left out) beside them. */
@OpenSchema()
export class CmsRecordDto {
  @ApiProperty({ type: 'integer', example: 1 }) id: number;
  @ApiPropertyOptional({ type: String, format: 'date-time' }) createdAt?: string;
  @ApiPropertyOptional({ type: String, format: 'date-time' }) updatedAt?: string;
  @ApiPropertyOptional({ type: 'integer', nullable: true }) createdById?: number | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true }) updatedById?: number | null;
  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Types with draftAndPublish',
  })
  publishedAt?: string | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'Types with draftAndPublish' })
  publishedById?: number | null;
  @ApiPropertyOptional({ enum: ['DRAFT', 'PUBLISHED'], description: 'Types with draftAndPublish' })
  publicationStatus?: string;
  [attribute: string]: unknown;
}

export class CmsRecordEnvelopeDto {
  @ApiProperty({
    type: CmsRecordDto,
    description: 'The record: its system fields and attributes (private ones left out)',
    example: RECORD_EXAMPLE,
  })
  data: CmsRecordDto;
}

export class CmsRecordPageDto {
  @ApiProperty({ type: [CmsRecordDto], example: [RECORD_EXAMPLE] }) data: CmsRecordDto[];
  @ApiProperty({ type: PageMetaDto }) meta: PageMetaDto;
}

export class BulkDeleteDto {
  @ApiProperty({ type: [Number], example: [1, 2, 3], description: 'Record ids (1 to 1000)' }) ids: number[];
}
