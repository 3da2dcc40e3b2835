import { ApiProperty } from '@nestjs/swagger';
import { OCR_LANGUAGE_CODES } from '../ocr/languages';

export class OcrLanguageDto {
  @ApiProperty({ enum: OCR_LANGUAGE_CODES, example: 'en' }) code: string;
  @ApiProperty({ example: 'English' }) name: string;
}

/** The OCR engine's status, its languages and the default one. */
export class OcrServiceStatusDto {
  @ApiProperty({ description: 'The embedded engine is always available' }) serviceAvailable: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'null with the embedded engine' })
  serviceUrl: string | null;
  @ApiProperty({ example: 'tesseract.js 7.0.0', description: "'unknown' when the HTTP engine is down" })
  serviceVersion: string;
  @ApiProperty({ type: [OcrLanguageDto] }) supportedLanguages: OcrLanguageDto[];
  @ApiProperty({ enum: OCR_LANGUAGE_CODES, example: 'en' }) defaultLanguage: string;
}

export class OcrServiceStatusEnvelopeDto {
  @ApiProperty({ type: OcrServiceStatusDto }) data: OcrServiceStatusDto;
}
