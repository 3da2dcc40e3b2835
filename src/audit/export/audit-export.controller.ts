import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Authenticated } from '../../access/access-rules';
import { ExportQueryDto } from '../dto/audit-query.dto';
import { parseRange } from '../queries/audit-dates';
import { AuditExportService } from './audit-export.service';

@ApiTags('Audit and compliance')
@Controller('compliance/audit/export')
export class AuditExportController {
  constructor(private readonly exporter: AuditExportService) {}

  @Get()
  @Authenticated({ permissions: ['audit_logs:read'], minRole: 'ADMIN' })
  @ApiOperation({
    summary: 'Stream matching entries as CSV or JSON lines, newest first (ADMIN); records an EXPORT entry',
  })
  @ApiProduces('text/csv', 'application/x-ndjson')
  @ApiResponse({ status: 200, description: 'CSV with a header row, or one JSON entry per line' })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR: bad format, filter or date' })
  async export(@Query() query: ExportQueryDto, @Res() res: Response) {
    const range = parseRange(query.startDate, query.endDate);
    const { format, category, query: text, ...rest } = query;
    await this.exporter.export(
      {
        action: query.action,
        entityType: query.entityType,
        entityId: query.entityId,
        userId: query.userId,
        ipAddress: query.ipAddress,
        text,
        security: category === 'security',
        errors: category === 'errors',
        range,
      },
      format,
      { ...rest, ...(text ? { query: text } : {}), ...(category ? { category } : {}) },
      res,
    );
  }
}
