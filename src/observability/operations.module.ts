import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { settingsProvider } from '../config/config.module';
import { OperationsSettings } from './operations.settings';
import { DrainState } from './shutdown/drain-state';
import { JobQueues } from './shutdown/job-queues';

/** Logging, shutdown and the queue dashboard's shared parts. */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [settingsProvider(OperationsSettings), DrainState, JobQueues],
  exports: [OperationsSettings, DrainState, JobQueues],
})
export class OperationsModule {}
