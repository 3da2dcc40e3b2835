import { Body, Controller, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Route } from '../../access/route.decorator';
import { CompaniesService } from './companies.service';
import { CompanyEnvelopeDto, CompanyInputDto, CompanyListDto } from './dto/company.dto';
import { IdParam } from '../../common/validation/id-param.pipe';

@ApiTags('Administration: companies')
@Controller('api/admin/companies')
export class CompaniesController {
  constructor(private readonly companies: CompaniesService) {}

  @Route('GET', '', { summary: 'List companies', permissions: ['companies:read'], response: CompanyListDto })
  list() {
    return this.companies.list();
  }

  @Route('GET', ':id', {
    summary: 'Get a company',
    permissions: ['companies:read'],
    response: CompanyEnvelopeDto,
    notFound: true,
  })
  get(@Param('id', IdParam) id: number) {
    return this.companies.get(id);
  }

  @Route('POST', '', {
    summary: 'Create a company',
    permissions: ['companies:create'],
    response: CompanyEnvelopeDto,
  })
  create(@Body() dto: CompanyInputDto) {
    return this.companies.create(dto);
  }

  @Route('PUT', ':id', {
    summary: 'Rename a company',
    permissions: ['companies:update'],
    response: CompanyEnvelopeDto,
  })
  update(@Param('id', IdParam) id: number, @Body() dto: CompanyInputDto) {
    return this.companies.update(id, dto);
  }

  @Route('DELETE', ':id', {
    summary: 'Delete a company that has no users',
    permissions: ['companies:delete'],
    conflict: 'The company still has users',
  })
  remove(@Param('id', IdParam) id: number) {
    return this.companies.remove(id);
  }
}
