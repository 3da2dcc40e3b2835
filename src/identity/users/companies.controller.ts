import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated } from '../../access/access-rules';
import { CompaniesService } from './companies.service';
import { CompanyEnvelopeDto, CompanyInputDto, CompanyListDto } from './dto/company.dto';
import { IdParam } from '../../common/validation/id-param.pipe';

@ApiTags('Administration: companies')
@Controller('api/admin/companies')
export class CompaniesController {
  constructor(private readonly companies: CompaniesService) {}

  @Get()
  @Authenticated({ permissions: ['companies:read'] })
  @ApiOperation({ summary: 'List companies' })
  @ApiOkResponse({ type: CompanyListDto })
  list() {
    return this.companies.list();
  }

  @Get(':id')
  @Authenticated({ permissions: ['companies:read'] })
  @ApiOperation({ summary: 'Get a company' })
  @ApiOkResponse({ type: CompanyEnvelopeDto })
  @ApiNotFoundResponse()
  get(@Param('id', IdParam) id: number) {
    return this.companies.get(id);
  }

  @Post()
  @Authenticated({ permissions: ['companies:create'] })
  @ApiOperation({ summary: 'Create a company' })
  @ApiCreatedResponse({ type: CompanyEnvelopeDto })
  create(@Body() dto: CompanyInputDto) {
    return this.companies.create(dto);
  }

  @Put(':id')
  @Authenticated({ permissions: ['companies:update'] })
  @ApiOperation({ summary: 'Rename a company' })
  @ApiOkResponse({ type: CompanyEnvelopeDto })
  update(@Param('id', IdParam) id: number, @Body() dto: CompanyInputDto) {
    return this.companies.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ permissions: ['companies:delete'] })
  @ApiOperation({ summary: 'Delete a company that has no users' })
  @ApiNoContentResponse()
  @ApiConflictResponse({ description: 'The company still has users' })
  remove(@Param('id', IdParam) id: number) {
    return this.companies.remove(id);
  }
}
