import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Route } from '../access/route.decorator';
import { CurrentPrincipal } from '../access/access-rules';
import { Principal } from '../access/principal';
import { CreateSandboxDto, SandboxDto } from './dto/sandbox.dto';
import { SandboxesService } from './sandboxes.service';

@ApiTags('Sandboxes')
@Controller('sandboxes')
export class SandboxesController {
  constructor(private readonly sandboxes: SandboxesService) {}

  @Route('GET', '', {
    summary: 'Production and the sandboxes the caller may enter',
    permissions: ['sandboxes:read'],
    response: [SandboxDto],
  })
  list(@CurrentPrincipal() principal: Principal) {
    return this.sandboxes.list(principal);
  }

  @Route('POST', '', {
    summary: 'Create a sandbox schema migrated like production; copyData copies production rows',
    permissions: ['sandboxes:create'],
    response: SandboxDto,
  })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateSandboxDto) {
    return this.sandboxes.create(principal, dto);
  }
}
