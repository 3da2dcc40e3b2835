import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Authenticated, CurrentPrincipal } from '../access/access-rules';
import type { Principal } from '../access/principal';
import { IdParam } from '../common/validation/id-param.pipe';
import { fileView } from './file-view';
import { FilesService } from './files.service';
import { FileRecordEnvelopeDto } from './file-record.dto';

/** Uploaded files, read back by their company's members (404 for other companies' files). */
@ApiTags('Files')
@Controller('api/files')
export class FilesController {
  constructor(private readonly files: FilesService) {}

  @Get(':id')
  @Authenticated({ permissions: ['documents:read'] })
  @ApiOperation({
    summary: 'An uploaded file record',
    description:
      "Name, size, type and place of a file of the caller's company (404 otherwise).\n\nAccess: a bearer credential with permission `documents:read`.",
  })
  @ApiOkResponse({ type: FileRecordEnvelopeDto })
  async get(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number) {
    return { data: fileView(await this.files.get(principal, id)) };
  }

  @Get(':id/content')
  @Authenticated({ permissions: ['documents:read'] })
  @ApiOperation({
    summary: 'The bytes of an uploaded file',
    description:
      'The stored bytes as an attachment, with the content type detected at upload (e.g. `image/png`, `application/pdf`).\n\nAccess: a bearer credential with permission `documents:read`.',
  })
  @ApiOkResponse({
    description: 'The file, with its detected content type',
    content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
  })
  async content(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdParam) id: number,
    @Res() res: Response,
  ) {
    const file = await this.files.get(principal, id);
    const stream = await this.files.open(file);
    res.setHeader('Content-Type', file.mime);
    res.setHeader('Content-Length', String(file.size));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`);
    stream.pipe(res);
  }
}
