import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { EngineQueryDto } from '../../records/engine-query';

/**
 * Query of custom-table lists and searches: the engine's `filter`, `fields` and `after`, and `sort`
 * (checked against the type by the service), `order` and the publication `status`.
 */
export class CmsListQueryDto extends EngineQueryDto {
  @ApiPropertyOptional({ description: 'A field of the type (system or non-private attribute); default id' })
  @IsOptional()
  @Matches(/^[a-zA-Z][a-zA-Z0-9_]{0,62}$/, { message: 'sort must be a field name' })
  sort?: string;

  @ApiPropertyOptional({ enum: ['ASC', 'DESC'], default: 'DESC' })
  @IsOptional()
  @IsIn(['ASC', 'DESC'])
  order?: 'ASC' | 'DESC';

  @ApiPropertyOptional({
    enum: ['draft', 'published'],
    description: 'Only with draftAndPublish; default both',
  })
  @IsOptional()
  @IsIn(['draft', 'published'])
  status?: 'draft' | 'published';
}

/** Query of the count endpoint. */
export class CmsCountQueryDto {
  @ApiPropertyOptional({
    enum: ['draft', 'published'],
    description: 'Only with draftAndPublish; default both',
  })
  @IsOptional()
  @IsIn(['draft', 'published'])
  status?: 'draft' | 'published';
}
