import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';

/** One problem of a VALIDATION_ERROR. */
export class FieldErrorDto {
  @ApiProperty({ example: 'name', description: 'The body, query or path field' })
  field: string;

  @ApiProperty({ example: 'name should not be empty' })
  message: string;
}

/** `error` of the standard envelope. */
@ApiExtraModels(FieldErrorDto)
export class ErrorBodyDto {
  @ApiProperty({ type: 'integer', example: 404, description: 'The HTTP status, repeated' })
  status: number;

  @ApiProperty({ example: 'NOT_FOUND', description: 'Machine-readable code (docs: API rules, error codes)' })
  code: string;

  @ApiProperty({ example: 'Unit not found' })
  message: string;

  @ApiPropertyOptional({
    description:
      'VALIDATION_ERROR: `[{ field, message }]`, one per problem; INTERNAL_ERROR: `{ requestId }`; other codes may add context',
    oneOf: [
      { type: 'array', items: { $ref: getSchemaPath(FieldErrorDto) } },
      { type: 'object', additionalProperties: true },
    ],
  })
  details?: unknown;
}

/** The standard error answer `{ error: { status, code, message, details? } }`. */
export class ErrorResponseDto {
  @ApiProperty({ type: ErrorBodyDto })
  error: ErrorBodyDto;
}

/** The document-analysis (OCR) endpoints' own failures: `{ error: "<message>" }`. */
export class OcrErrorResponseDto {
  @ApiProperty({ example: 'OCR is not enabled for this company' })
  error: string;
}

/** The password endpoints' own failures: `{ success: false, message }`. */
export class PasswordErrorResponseDto {
  @ApiProperty({ enum: [false], example: false })
  success: boolean;

  @ApiProperty({ example: 'Passwords do not match' })
  message: string;
}

/**
 * A password endpoint's 400: its own `{ success: false, message }`, or the standard envelope where
 * the request is refused before the endpoint reads it (malformed JSON, a NUL byte).
 */
export const PASSWORD_BAD_REQUEST = {
  oneOf: [{ $ref: getSchemaPath(PasswordErrorResponseDto) }, { $ref: getSchemaPath(ErrorResponseDto) }],
};
