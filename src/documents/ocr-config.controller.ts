import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Route } from '../access/route.decorator';
import { CurrentPrincipal } from '../access/access-rules';
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

  @Route('GET', 'ocr-status', {
    summary: 'OCR service status, supported languages and the default language',
    permissions: ['documents:read'],
    response: OcrServiceStatusEnvelopeDto,
  })
  async status() {
    return { data: await this.documents.serviceStatus() };
  }

  @Route('GET', ':companyId/ocr-config', {
    summary: "A company's OCR configuration",
    permissions: ['documents:read'],
    response: OcrConfigEnvelopeDto,
  })
  async get(@CurrentPrincipal() principal: Principal, @CompanyParam() companyId: number) {
    return { data: this.configs.view(await this.configs.get(companyId)) };
  }

  @Route('PUT', ':companyId/ocr-config', {
    summary: "Change a company's OCR configuration (the fields given)",
    permissions: ['documents:update'],
    minRole: 'ADMIN',
    response: OcrConfigChangedDto,
  })
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

  @Route('POST', ':companyId/ocr-config/enable', {
    summary: 'Turn OCR on for a company',
    permissions: ['documents:update'],
    minRole: 'ADMIN',
    response: OcrConfigChangedDto,
  })
  async enable(@CurrentPrincipal() principal: Principal, @CompanyParam() companyId: number) {
    const config = await this.configs.update(companyId, { ocrEnabled: true });
    return { data: this.configs.view(config), message: 'OCR enabled' };
  }

  @Route('POST', ':companyId/ocr-config/disable', {
    summary: 'Turn OCR off for a company',
    permissions: ['documents:update'],
    minRole: 'ADMIN',
    response: OcrConfigChangedDto,
  })
  async disable(@CurrentPrincipal() principal: Principal, @CompanyParam() companyId: number) {
    const config = await this.configs.update(companyId, { ocrEnabled: false });
    return { data: this.configs.view(config), message: 'OCR disabled' };
  }
}
