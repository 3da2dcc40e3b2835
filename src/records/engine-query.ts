import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PageQueryDto } from '../common/pagination/pagination';

/** The engine's own list parameters, with the names and syntax custom tables use. */
export interface EngineParams {
  filter?: string;
  fields?: string;
  after?: string;
}

/** Whether a list query asks for anything of the engine's own (then its answer carries `nextCursor`). */
export const asksEngine = (q: EngineParams) =>
  q.filter !== undefined || q.fields !== undefined || q.after !== undefined;

/**
 * A page query with the engine's `filter`, `fields` and `after`: the filter language as JSON, the fields to answer
 * and a cursor (docs/api-rules.md, "What every list route also accepts").
 */
export class EngineQueryDto extends PageQueryDto implements EngineParams {
  @ApiPropertyOptional({
    description:
      'A filter in the filter language of custom tables, as JSON: `{"status":"ACTIVE"}`, operators ' +
      '(`{"createdAt":{"$gte":"2026-01-01"}}`), `$and`, `$or`, `$not`',
    example: '{"$or":[{"status":"ACTIVE"},{"status":"COMPLETED"}]}',
  })
  @IsOptional()
  @IsString()
  @MaxLength(8000)
  filter?: string;

  @ApiPropertyOptional({
    description: 'Fields to answer, comma-separated; id always comes back',
    example: 'title,status',
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
