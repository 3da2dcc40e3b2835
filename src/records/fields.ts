import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateString, IsIn, IsOptional } from 'class-validator';

/** An optional body or query field that takes one of `values` (Swagger enum, 400 otherwise). */
export const OptionalEnum = (values: readonly string[], defaultValue?: string) =>
  applyDecorators(ApiPropertyOptional({ enum: values, default: defaultValue }), IsOptional(), IsIn(values));

/** An optional ISO 8601 datetime given as text (the service makes it a Date). */
export const OptionalDateTime = (example: string) =>
  applyDecorators(ApiPropertyOptional({ example }), IsOptional(), IsDateString());
