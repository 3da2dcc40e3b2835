import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { toBool, toInt } from './load-settings';

const HTTP_URL = /^https?:\/\/[^\s]+$/;

/**
 * Outside stores that have an embedded default (docs/api-rules.md): file storage, the AI
 * conversation log and the OCR engine. Validated at start and probed by the health endpoint.
 */
export class StoresSettings {
  /** Local folder of uploaded files when no S3-compatible store is configured. */
  @IsString()
  STORAGE_DIR = './storage';

  @IsOptional()
  @Matches(HTTP_URL, { message: 'must be an http(s) URL' })
  S3_ENDPOINT?: string = undefined;

  @IsOptional()
  @IsString()
  S3_BUCKET?: string = undefined;

  @IsOptional()
  @IsString()
  S3_REGION?: string = undefined;

  @IsOptional()
  @IsString()
  S3_ACCESS_KEY_ID?: string = undefined;

  @IsOptional()
  @IsString()
  S3_SECRET_ACCESS_KEY?: string = undefined;

  @IsOptional()
  @Matches(HTTP_URL, { message: 'must be an http(s) URL' })
  AI_LOG_INFLUX_URL?: string = undefined;

  @IsOptional()
  @IsString()
  AI_LOG_INFLUX_TOKEN?: string = undefined;

  @IsOptional()
  @IsString()
  AI_LOG_INFLUX_ORG?: string = undefined;

  @IsOptional()
  @IsString()
  AI_LOG_INFLUX_BUCKET?: string = undefined;

  @Transform(toBool)
  @IsBoolean()
  OCR_ENABLED = false;

  /** HTTP OCR service; empty: the embedded engine. */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'must be an http(s) URL' })
  OCR_SERVICE_URL?: string = undefined;

  @Matches(/^\/[^\s]*$/, { message: 'must be a path starting with /' })
  OCR_ENDPOINT = '/ocr';

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  OCR_TIMEOUT_SECONDS = 120;

  /** Default OCR language: one of the six codes the OCR configuration accepts (documents' languages.ts). */
  @IsIn(['ch', 'en', 'fr', 'german', 'korean', 'japan'])
  OCR_LANGUAGE = 'ch';

  @Transform(toBool)
  @IsBoolean()
  OCR_USE_GPU = false;
}
