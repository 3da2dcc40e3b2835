import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsNumber, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { DATE_TIME_RULE, IsDateTimeText } from '../common/validation/datetime';

/** An optional body or query field that takes one of `values` (Swagger enum, 400 otherwise). */
export const OptionalEnum = (values: readonly string[], defaultValue?: string) =>
  applyDecorators(ApiPropertyOptional({ enum: values, default: defaultValue }), IsOptional(), IsIn(values));

/** An optional date or datetime given as text (`DATE_TIME_RULE`; the service makes it a Date). */
export const OptionalDateTime = (example: string) =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      format: 'date-time',
      nullable: true,
      example,
      description: DATE_TIME_RULE,
    }),
    IsOptional(),
    IsDateTimeText(),
  );

/** An optional text field of at most `max` characters (null clears it on PUT). */
export const OptionalText = (max: number, example?: string) =>
  applyDecorators(
    ApiPropertyOptional({ maxLength: max, example, nullable: true, type: String }),
    IsOptional(),
    IsString(),
    MaxLength(max),
  );

/** An optional id of another record (`unitId`); the service checks it is in the caller's company. */
export const OptionalRef = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({ description, nullable: true, type: Number }),
    IsOptional(),
    IsInt(),
    Min(1),
  );

/** An optional non-negative decimal with at most `places` decimals (3 for MW, 2 for money). */
export const OptionalDecimal = (places: 2 | 3, example: number) =>
  applyDecorators(
    ApiPropertyOptional({ example, nullable: true, type: Number, description: `At most ${places} decimals` }),
    IsOptional(),
    IsNumber({ maxDecimalPlaces: places, allowNaN: false, allowInfinity: false }),
    Min(0),
  );
