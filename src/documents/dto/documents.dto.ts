import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { SORTS } from '../document-queries';
import { DOCUMENT_STATUSES } from '../entities/document-content.entity';
import { OCR_LANGUAGE_CODES, SUPPORTED_FILE_TYPES } from '../ocr/languages';

/** Validates a field unless it is absent (unlike IsOptional, null is validated, hence refused). */
const IsGiven = () => ValidateIf((_: object, value: unknown) => value !== undefined);

const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' || value === true ? true : value === 'false' || value === false ? false : value;

const SORT = new RegExp(`^(${Object.keys(SORTS).join('|')})(,(asc|desc|ASC|DESC))?$`);
const FILE_TYPES = new RegExp(
  `^(${SUPPORTED_FILE_TYPES.join('|')})(,(${SUPPORTED_FILE_TYPES.join('|')}))*$`,
  'i',
);

/** `page` (0-based) and `size` (at most 100) of the OCR lists. */
export class OcrPageQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 1_000_000,
    default: 0,
    description: 'Page number, 0-based',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  page = 0;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  size = 20;
}

export class AnalysisListQueryDto extends OcrPageQueryDto {
  @ApiPropertyOptional({ enum: DOCUMENT_STATUSES })
  @IsOptional()
  @IsIn(DOCUMENT_STATUSES)
  status?: (typeof DOCUMENT_STATUSES)[number];

  @ApiPropertyOptional({
    example: 'createdAt,desc',
    description: `field,direction; fields: ${Object.keys(SORTS).join(', ')}`,
  })
  @IsOptional()
  @Matches(SORT, { message: 'sort must be field,asc|desc with a sortable field' })
  sort?: string;
}

export class FullTextQueryDto {
  @ApiPropertyOptional({ type: Boolean, default: false })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  includeFullText = false;
}

export class CompanyQueryDto {
  @ApiProperty({ description: 'Company id' })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  companyId: number;
}

export class DocumentSearchQueryDto extends OcrPageQueryDto {
  @ApiProperty({ description: 'Company id' })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  companyId: number;

  @ApiProperty({ description: 'Words, "a phrase", OR, -excluded', maxLength: 500 })
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  q: string;
}

export class AdminListQueryDto extends OcrPageQueryDto {
  @ApiProperty({ description: 'Company id' })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  companyId: number;

  @ApiPropertyOptional({ enum: DOCUMENT_STATUSES })
  @IsOptional()
  @IsIn(DOCUMENT_STATUSES)
  status?: (typeof DOCUMENT_STATUSES)[number];
}

/** Each field may be left out; given, it must be valid (null is refused: the columns hold no null). */
export class UpdateOcrConfigDto {
  @ApiPropertyOptional()
  @IsGiven()
  @IsBoolean()
  ocrEnabled?: boolean;

  @ApiPropertyOptional({ enum: OCR_LANGUAGE_CODES })
  @IsGiven()
  @IsIn(OCR_LANGUAGE_CODES)
  ocrLanguage?: string;

  @ApiPropertyOptional()
  @IsGiven()
  @IsBoolean()
  ocrAutoProcess?: boolean;

  @ApiPropertyOptional({ example: 'pdf,png,jpg,jpeg,tiff,docx,doc' })
  @IsGiven()
  @IsString()
  @MaxLength(200)
  @Matches(FILE_TYPES, {
    message: `ocrFileTypes must list supported extensions: ${SUPPORTED_FILE_TYPES.join(',')}`,
  })
  ocrFileTypes?: string;
}
