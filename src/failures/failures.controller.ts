import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import {
  CreateFailureDto,
  UpdateFailureDto,
  FailureEnvelopeDto,
  FailurePageDto,
  FailureQueryDto,
} from './dto/failure.dto';
import { FailuresService } from './failures.service';
import { IdParam } from '../common/validation/id-param.pipe';

@ApiTags('Assets: failures')
@Controller('api/failures')
export class FailuresController {
  constructor(private readonly failures: FailuresService) {}

  @Get()
  @Authenticated({ permissions: ['units:read'] })
  @ApiOperation({ summary: 'List failures (paged, company-scoped)' })
  @ApiOkResponse({ type: FailurePageDto })
  list(@CurrentPrincipal() principal: Principal, @Query() query: FailureQueryDto) {
    return this.failures.list(principal, query);
  }

  @Get(':id')
  @Authenticated({ permissions: ['units:read'] })
  @ApiOperation({ summary: 'Get a failure' })
  @ApiOkResponse({ type: FailureEnvelopeDto })
  @ApiNotFoundResponse()
  get(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number) {
    return this.failures.get(principal, id);
  }

  @Post()
  @Authenticated({ permissions: ['units:create'] })
  @ApiOperation({ summary: 'Record a failure of a unit' })
  @ApiCreatedResponse({ type: FailureEnvelopeDto })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR' })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateFailureDto) {
    return this.failures.create(principal, dto);
  }

  @Put(':id')
  @Authenticated({ permissions: ['units:update'] })
  @ApiOperation({ summary: 'Update the given fields of a failure' })
  @ApiOkResponse({ type: FailureEnvelopeDto })
  @ApiNotFoundResponse()
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdParam) id: number,
    @Body() dto: UpdateFailureDto,
  ) {
    return this.failures.update(principal, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ permissions: ['units:delete'] })
  @ApiOperation({ summary: 'Delete a failure' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse()
  remove(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number) {
    return this.failures.remove(principal, id);
  }
}
