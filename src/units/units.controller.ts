import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { CreateUnitDto, UnitEnvelopeDto, UnitQueryDto, UpdateUnitDto } from './dto/unit.dto';
import { UnitsService } from './units.service';
import { IdParam } from '../common/validation/id-param.pipe';

@ApiTags('Assets: units')
@Controller('api/units')
export class UnitsController {
  constructor(private readonly units: UnitsService) {}

  @Get()
  @Authenticated({ permissions: ['units:read'] })
  @ApiOperation({ summary: 'List units (paged, company-scoped)' })
  list(@CurrentPrincipal() principal: Principal, @Query() query: UnitQueryDto) {
    return this.units.list(principal, query);
  }

  @Get(':id')
  @Authenticated({ permissions: ['units:read'] })
  @ApiOperation({ summary: 'Get a unit' })
  @ApiOkResponse({ type: UnitEnvelopeDto })
  @ApiNotFoundResponse()
  get(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number) {
    return this.units.get(principal, id);
  }

  @Post()
  @Authenticated({ permissions: ['units:create'] })
  @ApiOperation({ summary: 'Create a unit in the caller’s company' })
  @ApiCreatedResponse({ type: UnitEnvelopeDto })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateUnitDto) {
    return this.units.create(principal, dto);
  }

  @Put(':id')
  @Authenticated({ permissions: ['units:update'] })
  @ApiOperation({ summary: 'Update the given fields of a unit' })
  @ApiOkResponse({ type: UnitEnvelopeDto })
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdParam) id: number,
    @Body() dto: UpdateUnitDto,
  ) {
    return this.units.update(principal, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ permissions: ['units:delete'] })
  @ApiOperation({ summary: 'Delete a unit' })
  @ApiNoContentResponse()
  remove(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number) {
    return this.units.remove(principal, id);
  }
}
