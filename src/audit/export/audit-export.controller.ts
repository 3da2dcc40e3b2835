import { Controller, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Route } from '../../access/route.decorator';
import { ExportQueryDto } from '../dto/audit-query.dto';
import { parseRange } from '../queries/audit-dates';
import { AuditExportService } from './audit-export.service';

@ApiTags('Audit and compliance')
@Controller('compliance/audit/export')
export class AuditExportController {
  constructor(private readonly exporter: AuditExportService) {}

  @Route('GET', '', {
    summary: 'Stream matching entries as CSV or JSON lines, newest first (ADMIN); records an EXPORT entry',
    permissions: ['audit_logs:read'],
    minRole: 'ADMIN',
    badRequest: 'VALIDATION_ERROR: bad format, filter or date',
  })
  @ApiOkResponse({
    description: 'CSV with a header row, or one JSON entry per line',
    content: {
      'text/csv': { schema: { type: 'string' } },
      'application/x-ndjson': { schema: { type: 'string' } },
    },
  })
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
