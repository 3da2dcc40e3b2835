import { Controller, Get, Headers, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { Public } from '../../access/access-rules';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { MetricsService } from './metrics.service';

/** Prometheus scrape endpoint; open unless METRICS_TOKEN is set. */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Public()
  async scrape(@Headers('authorization') authorization: string | undefined, @Res() res: Response) {
    const expected = this.config.METRICS_TOKEN;
    if (expected) {
      const given = Buffer.from(authorization ?? '');
      const wanted = Buffer.from(`Bearer ${expected}`);
      if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) throw AppError.unauthorized();
    }
    res.setHeader('Content-Type', this.metrics.registry.contentType);
    res.send(await this.metrics.registry.metrics());
  }
}
