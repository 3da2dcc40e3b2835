import { Module } from '@nestjs/common';
import { RecordsModule } from '../records/records.module';
import { OutagesController } from './outages.controller';
import { OutagesService } from './outages.service';
import { OutagesRepository } from './outages.repository';
import { OutageEvent } from './entities/outage-event.entity';

export const OUTAGE_ENTITIES = [OutageEvent];

@Module({
  imports: [RecordsModule],
  controllers: [OutagesController],
  providers: [OutagesService, OutagesRepository],
})
export class OutagesModule {}
