import { ApiProperty } from '@nestjs/swagger';
import { OCR_LANGUAGE_CODES, SUPPORTED_FILE_TYPES } from '../ocr/languages';

/** A company's OCR configuration. */
export class OcrConfigDto {
  @ApiProperty({ type: 'integer', example: 3 }) companyId: number;
  @ApiProperty({ example: 'North Grid Energy' }) companyName: string;
  @ApiProperty({ description: "The company's setting (OCR also needs OCR_ENABLED)" }) ocrEnabled: boolean;
  @ApiProperty({ enum: OCR_LANGUAGE_CODES, example: 'en' }) ocrLanguage: string;
  @ApiProperty() ocrAutoProcess: boolean;
  @ApiProperty({ example: 'pdf,png,jpg,jpeg,tiff,docx,doc', description: 'Extensions, comma-separated' })
  ocrFileTypes: string;
  @ApiProperty({
    type: [String],
    example: SUPPORTED_FILE_TYPES.map((t) => t.toUpperCase()),
    description: 'The file types OCR can read',
  })
  supportedFileTypes: string[];
}

export class OcrConfigEnvelopeDto {
  @ApiProperty({ type: OcrConfigDto }) data: OcrConfigDto;
}

export class OcrConfigChangedDto {
  @ApiProperty({ type: OcrConfigDto }) data: OcrConfigDto;
  @ApiProperty({ example: 'OCR configuration updated' }) message: string;
}
