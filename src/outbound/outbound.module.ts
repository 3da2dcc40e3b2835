import { Module } from '@nestjs/common';
import { OutboundHttp } from './outbound-http';

/** Outbound HTTP (see docs/outbound.md); import it where a module calls out. */
@Module({ providers: [OutboundHttp], exports: [OutboundHttp] })
export class OutboundModule {}
