import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { PageQueryDto } from '../../common/pagination/pagination';

/** Query of custom-table lists and searches; `sort` is checked against the type by the service. */
export class CmsListQueryDto extends PageQueryDto {
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

  @ApiPropertyOptional({
    description: 'Fields to answer, comma-separated (system or non-private attributes); id always comes back',
    example: 'name,capacity',
  })
  @IsOptional()
  @Matches(/^[a-zA-Z][a-zA-Z0-9_]{0,62}(,[a-zA-Z][a-zA-Z0-9_]{0,62}){0,119}$/, {
    message: 'fields must be field names separated by commas',
  })
  fields?: string;

  @ApiPropertyOptional({
    description:
      'Cursor of the page to read: meta.pagination.nextCursor of the previous page (same sort and order)',
  })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,900}\.[A-Za-z0-9_-]{43}$/, { message: 'after must be a cursor' })
  after?: string;
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
