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
  CreateWorkOrderDto,
  UpdateWorkOrderDto,
  WorkOrderEnvelopeDto,
  WorkOrderPageDto,
  WorkOrderQueryDto,
} from './dto/work-order.dto';
import { WorkOrdersService } from './work-orders.service';
import { IdParam } from '../common/validation/id-param.pipe';

@ApiTags('Assets: work orders')
@Controller('api/work-orders')
export class WorkOrdersController {
  constructor(private readonly orders: WorkOrdersService) {}

  @Get()
  @Authenticated({ permissions: ['units:read'] })
  @ApiOperation({ summary: 'List work orders (paged, company-scoped)' })
  @ApiOkResponse({ type: WorkOrderPageDto })
  list(@CurrentPrincipal() principal: Principal, @Query() query: WorkOrderQueryDto) {
    return this.orders.list(principal, query);
  }

  @Get(':id')
  @Authenticated({ permissions: ['units:read'] })
  @ApiOperation({ summary: 'Get a work order' })
  @ApiOkResponse({ type: WorkOrderEnvelopeDto })
  @ApiNotFoundResponse()
  get(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number) {
    return this.orders.get(principal, id);
  }

  @Post()
  @Authenticated({ permissions: ['units:create'] })
  @ApiOperation({ summary: 'Create a work order for a unit' })
  @ApiCreatedResponse({ type: WorkOrderEnvelopeDto })
  @ApiBadRequestResponse({ description: 'VALIDATION_ERROR' })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateWorkOrderDto) {
    return this.orders.create(principal, dto);
  }

  @Put(':id')
  @Authenticated({ permissions: ['units:update'] })
  @ApiOperation({ summary: 'Update the given fields of a work order' })
  @ApiOkResponse({ type: WorkOrderEnvelopeDto })
  @ApiNotFoundResponse()
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdParam) id: number,
    @Body() dto: UpdateWorkOrderDto,
  ) {
    return this.orders.update(principal, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ permissions: ['units:delete'] })
  @ApiOperation({ summary: 'Delete a work order' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse()
  remove(@CurrentPrincipal() principal: Principal, @Param('id', IdParam) id: number) {
    return this.orders.remove(principal, id);
  }
}
