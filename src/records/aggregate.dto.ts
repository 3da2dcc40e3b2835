import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The filter language of searches and aggregates (schema for Swagger; checked by the service). */
export const CMS_FILTER_SCHEMA = {
  type: 'object' as const,
  additionalProperties: true,
  description:
    '{ field: value } (equality) or { field: { $eq|$ne|$gt|$gte|$lt|$lte|$between|$in|$nin|$contains|$icontains|$startsWith|$endsWith|$null|$notNull: value } }; ' +
    '$and / $or take arrays of filters, $not a filter; { relation: { targetField: ... } } filters on a manyToOne / oneToOne target. ' +
    'At most 5 levels and 50 conditions.',
  example: {
    $or: [{ region: 'NORTH' }, { capacity: { $between: [10, 20] } }],
    site: { name: { $startsWith: 'S-' } },
  },
};

/** A groupBy entry with date truncation. */
export class CmsGroupByDto {
  @ApiProperty({ example: 'commissioned' }) field: string;
  @ApiPropertyOptional({
    enum: ['day', 'week', 'month', 'year'],
    description: 'date and datetime fields (UTC)',
  })
  interval?: string;
}

/** Body of `POST /api/cms/{collection}/aggregate`. */
export class CmsAggregateDto {
  @ApiProperty({
    description:
      'Function to field names: count (`*` for rows), countDistinct, sum, avg (number fields), min, max (numbers, dates, times, strings); at most 20 fields in all',
    example: { count: ['*'], sum: ['capacity'], max: ['commissioned'] },
  })
  aggregate: Record<string, string[]>;

  @ApiPropertyOptional({
    description:
      'At most 5 fields (not json, many relations or multiple media); groups come in ascending order, at most 1000',
    type: 'array',
    items: { oneOf: [{ type: 'string' }, { $ref: '#/components/schemas/CmsGroupByDto' }] },
    example: ['region', { field: 'commissioned', interval: 'month' }],
  })
  groupBy?: (string | CmsGroupByDto)[];

  @ApiPropertyOptional({ ...CMS_FILTER_SCHEMA })
  filter?: Record<string, unknown>;
}

export class CmsAggregateEnvelopeDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description:
      'One entry per group (one in all without groupBy): `group` (the groupBy fields), then per function the value per field; numbers as numbers',
    example: [{ group: { region: 'NORTH' }, count: { '*': 12 }, sum: { capacity: 340 } }],
  })
  data: Record<string, unknown>[];
}
