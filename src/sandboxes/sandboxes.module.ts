import { CmsModule } from '../cms';
import { Module } from '@nestjs/common';
import { SandboxesController } from './sandboxes.controller';
import { SandboxesRepository } from './sandboxes.repository';
import { SandboxesService } from './sandboxes.service';

@Module({
  imports: [CmsModule],
  controllers: [SandboxesController],
  providers: [SandboxesRepository, SandboxesService],
})
export class SandboxesModule {}
