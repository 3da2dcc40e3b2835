import { Body, Controller, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from '../access/access-rules';
import type { Principal } from '../access/principal';
import { DocumentsService } from './documents.service';
import { UpdateOcrConfigDto } from './dto/documents.dto';
import { OcrConfigStore } from './ocr-config.store';
import { OcrConfigChangedDto, OcrConfigEnvelopeDto } from './dto/ocr-config.dto';
import { OcrServiceStatusEnvelopeDto } from './dto/ocr-status.dto';
import { CompanyParam } from '../access/company-param.decorator';

/** The OCR settings of a company and the engine's status. */
@ApiTags('OCR')
@Controller('api/companies')
export class OcrConfigController {
  constructor(
    private readonly configs: OcrConfigStore,
    private readonly documents: DocumentsService,
  ) {}

  @Get('ocr-status')
  @Authenticated({ permissions: ['documents:read'] })
  @ApiOperation({ summary: 'OCR service status, supported languages and the default language' })
  @ApiOkResponse({ type: OcrServiceStatusEnvelopeDto })
  async status() {
    return { data: await this.documents.serviceStatus() };
  }

  @Get(':companyId/ocr-config')
  @Authenticated({ permissions: ['documents:read'] })
  @ApiOperation({ summary: "A company's OCR configuration" })
  @ApiOkResponse({ type: OcrConfigEnvelopeDto })
  async get(@CurrentPrincipal() principal: Principal, @CompanyParam() companyId: number) {
    return { data: this.configs.view(await this.configs.get(companyId)) };
  }

  @Put(':companyId/ocr-config')
  @Authenticated({ permissions: ['documents:update'], minRole: 'ADMIN' })
  @ApiOperation({ summary: "Change a company's OCR configuration (the fields given)" })
  @ApiOkResponse({ type: OcrConfigChangedDto })
  async update(
    @CurrentPrincipal() principal: Principal,
    @CompanyParam() companyId: number,
    @Body() dto: UpdateOcrConfigDto,
  ) {
    const config = await this.configs.update(companyId, {
      ...dto,
      ocrFileTypes: dto.ocrFileTypes?.toLowerCase(),
    });
    return { data: this.configs.view(config), message: 'OCR configuration updated' };
  }

  @Post(':companyId/ocr-config/enable')
  @HttpCode(200)
  @Authenticated({ permissions: ['documents:update'], minRole: 'ADMIN' })
  @ApiOperation({ summary: 'Turn OCR on for a company' })
  @ApiOkResponse({ type: OcrConfigChangedDto })
  async enable(@CurrentPrincipal() principal: Principal, @CompanyParam() companyId: number) {
    const config = await this.configs.update(companyId, { ocrEnabled: true });
    return { data: this.configs.view(config), message: 'OCR enabled' };
  }

  @Post(':companyId/ocr-config/disable')
  @HttpCode(200)
  @Authenticated({ permissions: ['documents:update'], minRole: 'ADMIN' })
  @ApiOperation({ summary: 'Turn OCR off for a company' })
  @ApiOkResponse({ type: OcrConfigChangedDto })
  async disable(@CurrentPrincipal() principal: Principal, @CompanyParam() companyId: number) {
    const config = await this.configs.update(companyId, { ocrEnabled: false });
    return { data: this.configs.view(config), message: 'OCR disabled' };
  }
}
