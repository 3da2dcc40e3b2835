import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal } from '../access/access-rules';
import { Principal } from '../access/principal';
import { CreateSandboxDto, SandboxDto } from './dto/sandbox.dto';
import { SandboxesService } from './sandboxes.service';

@ApiTags('Sandboxes')
@Controller('sandboxes')
export class SandboxesController {
  constructor(private readonly sandboxes: SandboxesService) {}

  @Get()
  @Authenticated({ permissions: ['sandboxes:read'] })
  @ApiOperation({ summary: 'Production and the sandboxes the caller may enter' })
  @ApiOkResponse({ type: [SandboxDto] })
  list(@CurrentPrincipal() principal: Principal) {
    return this.sandboxes.list(principal);
  }

  @Post()
  @Authenticated({ permissions: ['sandboxes:create'] })
  @ApiOperation({
    summary: 'Create a sandbox schema migrated like production; copyData copies production rows',
  })
  @ApiCreatedResponse({ type: SandboxDto })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateSandboxDto) {
    return this.sandboxes.create(principal, dto);
  }
}
