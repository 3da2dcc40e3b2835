import { Body, Controller, Post, Query, Req, UseInterceptors } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { Authenticated, CurrentPrincipal } from '../access/access-rules';
import type { Principal } from '../access/principal';
import { AppError } from '../common/errors/app-error';
import { LinkQueryDto, UploadQueryDto } from './upload-query.dto';
import { FileRecordDto } from './file-record.dto';
import { FilesService } from './files.service';
import { UploadInterceptor } from './upload.interceptor';
import { ReceivedFile } from './upload-storage';
import { CompanyParam } from '../access/company-param.decorator';

const FILES_BODY = {
  schema: {
    type: 'object',
    required: ['files'],
    properties: { files: { type: 'array', items: { type: 'string', format: 'binary' } } },
  },
};
const LINK_BODY = {
  schema: {
    type: 'object',
    required: ['files'],
    properties: {
      files: { type: 'array', items: { type: 'string', format: 'binary' } },
      ref: { type: 'string', description: 'Entity type' },
      refId: { type: 'integer' },
      field: { type: 'string' },
    },
  },
};
const received = (req: Request) => (req.files ?? []) as unknown as ReceivedFile[];
const REF = /^[A-Za-z0-9_.:-]{1,100}$/;
const FIELD = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Company file upload (multipart/form-data, part `files`): answers the array of file records. */
@ApiTags('Files')
@Controller('api/upload/company/:companyId')
@UseInterceptors(UploadInterceptor)
export class UploadController {
  constructor(private readonly files: FilesService) {}

  @Post()
  @Authenticated({ permissions: ['documents:create'] })
  @ApiOperation({
    summary: "Upload files into a company's folder",
    description:
      'Multipart form: one or more `files` parts; answers the stored file records.\n\nAccess: a bearer credential with permission `documents:create`.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody(FILES_BODY)
  @ApiCreatedResponse({ type: [FileRecordDto], description: 'Array of uploaded file records' })
  @ApiPayloadTooLargeResponse({ description: 'Too many files or a file too large' })
  upload(
    @CurrentPrincipal() principal: Principal,
    @CompanyParam() companyId: number,
    @Query() q: UploadQueryDto,
    @Req() req: Request,
  ) {
    return this.files.upload(principal, companyId, received(req), q.folder);
  }

  @Post('multiple')
  @Authenticated({ permissions: ['documents:create'] })
  @ApiOperation({
    summary: "Upload several files into a company's folder",
    description:
      'Same as the single upload, under the path older clients use.\n\nAccess: a bearer credential with permission `documents:create`.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody(FILES_BODY)
  @ApiCreatedResponse({ type: [FileRecordDto], description: 'Array of uploaded file records' })
  @ApiPayloadTooLargeResponse({ description: 'Too many files or a file too large' })
  multiple(
    @CurrentPrincipal() principal: Principal,
    @CompanyParam() companyId: number,
    @Query() q: UploadQueryDto,
    @Req() req: Request,
  ) {
    return this.files.upload(principal, companyId, received(req), q.folder);
  }

  @Post('link')
  @Authenticated({ permissions: ['documents:create'] })
  @ApiOperation({
    summary: 'Upload files and attach them to a record field (ref, refId, field)',
    description:
      'The files are stored, then linked to the media field `field` of record `refId` of `ref`.\n\nAccess: a bearer credential with permission `documents:create`.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody(LINK_BODY)
  @ApiCreatedResponse({ type: [FileRecordDto], description: 'Array of uploaded file records' })
  @ApiPayloadTooLargeResponse({ description: 'Too many files or a file too large' })
  link(
    @CurrentPrincipal() principal: Principal,
    @CompanyParam() companyId: number,
    @Query() q: LinkQueryDto,
    @Body() body: Record<string, unknown>,
    @Req() req: Request,
  ) {
    const pick = (name: 'ref' | 'refId' | 'field') => (body?.[name] as string | undefined) ?? q[name];
    const ref = String(pick('ref') ?? '');
    const refId = Number(pick('refId'));
    const field = String(pick('field') ?? '');
    const details = [
      ...(REF.test(ref) ? [] : [{ field: 'ref', message: 'ref is required: an entity type name' }]),
      ...(Number.isSafeInteger(refId) && refId > 0
        ? []
        : [{ field: 'refId', message: 'refId must be a positive integer' }]),
      ...(FIELD.test(field) ? [] : [{ field: 'field', message: 'field is required: a field name' }]),
    ];
    if (details.length) throw AppError.validation(details);
    return this.files.upload(principal, companyId, received(req), q.folder, { ref, refId, field });
  }
}
