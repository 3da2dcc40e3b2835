import { CmsModule } from '../cms';
import { Module } from '@nestjs/common';
import { SandboxesController } from './sandboxes.controller';
import { SandboxesService } from './sandboxes.service';

@Module({
  imports: [CmsModule],
  controllers: [SandboxesController],
  providers: [SandboxesService],
})
export class SandboxesModule {}
