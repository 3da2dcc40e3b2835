import { Controller, Get, Headers, Res } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheckService, HealthIndicatorFunction, HealthIndicatorService } from '@nestjs/terminus';
import type { Response } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { access, constants, mkdir } from 'node:fs/promises';
import { Public } from '../access/access-rules';
import { HealthReportDto, LivenessDto } from './health-report.dto';
import { BearerAuthenticator } from '../access/bearer-authenticator';
import { AppConfig } from '../config/app-config';
import { StoresSettings } from '../config/stores.settings';
import { DrainState } from '../observability/shutdown/drain-state';
import { RedisService } from '../redis/redis.service';
import { TextExtraction } from '../documents';
import { TenantPools } from '../tenancy/tenant-pools';

const TIMEOUT_MS = 2000;
const CLIENT_CHECK = /^client:/;

function withTimeout<T>(work: Promise<T>): Promise<T> {
  return Promise.race([
    work,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`timed out after ${TIMEOUT_MS} ms`)), TIMEOUT_MS).unref(),
    ),
  ]);
}

/** Any HTTP answer (even 4xx) shows the service is there; only a connection failure is "down". */
async function reachable(url: string): Promise<void> {
  const res = await fetch(url, {
    method: 'GET',
    redirect: 'manual',
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  await res.arrayBuffer();
  if (res.status >= 500) throw new Error(`answered ${res.status}`);
}

@ApiTags('Health')
@Public()
@Controller('management/health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly pools: TenantPools,
    private readonly redis: RedisService,
    private readonly config: AppConfig,
    private readonly stores: StoresSettings,
    private readonly moduleRef: ModuleRef,
    private readonly drain: DrainState,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Overall status, database, Redis, stores, feature flags',
    description:
      'Every open client connection is listed too (`client:<identifier>`) for the metrics token or a SUPER_ADMIN credential only.',
  })
  @ApiOkResponse({ description: 'Everything up', type: HealthReportDto })
  @ApiServiceUnavailableResponse({ description: 'A component is down', type: HealthReportDto })
  async full(@Headers('authorization') authorization: string | undefined, @Res() res: Response) {
    // A pool being opened for a request is not a failure (state opening); its first query will tell.
    const clientChecks = this.pools
      .open()
      .map(({ identifier, ping }) => this.probe(`client:${identifier}`, ping));
    const showClients = await this.maySeeClients(authorization);
    await this.respond(
      res,
      [...this.coreChecks(), ...this.storeChecks(), ...clientChecks],
      { features: this.features() },
      showClients,
    );
  }

  /** Client identifiers are for operators: the metrics token or a SUPER_ADMIN credential. */
  private async maySeeClients(authorization: string | undefined): Promise<boolean> {
    if (!authorization) return false;
    const token = this.config.METRICS_TOKEN;
    if (token) {
      const given = Buffer.from(authorization);
      const wanted = Buffer.from(`Bearer ${token}`);
      if (given.length === wanted.length && timingSafeEqual(given, wanted)) return true;
    }
    try {
      const principal = await this.moduleRef
        .get(BearerAuthenticator, { strict: false })
        .authenticate(authorization);
      return principal.role === 'SUPER_ADMIN' && !principal.restricted;
    } catch {
      return false;
    }
  }

  @Get('liveness')
  @ApiOperation({
    summary: 'Kubernetes liveness: the process answers',
    description: 'Answers as soon as the process runs, whatever its dependencies.',
  })
  @ApiOkResponse({ description: 'The process runs', type: LivenessDto })
  liveness() {
    return { status: 'ok' };
  }

  @Get('readiness')
  @ApiOperation({
    summary: 'Kubernetes readiness: the master database reachable',
    description:
      'Only what this pod cannot serve without: Redis or a client database being away affects every pod alike, ' +
      'so it is reported by the full health report, not here. Answers 503 from the moment the process is told ' +
      'to stop (SIGTERM) until it exits.',
  })
  @ApiOkResponse({ description: 'Ready', type: HealthReportDto })
  @ApiServiceUnavailableResponse({
    description: 'Master database away, or shutting down',
    type: HealthReportDto,
  })
  async readiness(@Res() res: Response) {
    if (this.drain.isDraining) {
      res.status(503).json({ status: 'shutting_down', info: {}, error: {}, details: {} });
      return;
    }
    await this.respond(res, [this.masterDatabaseCheck()], {});
  }

  private masterDatabaseCheck(): HealthIndicatorFunction {
    return this.probe('database', () => this.pools.pingMaster());
  }

  private coreChecks(): HealthIndicatorFunction[] {
    return [
      this.masterDatabaseCheck(),
      this.probe('broker', async () => void (await this.redis.client.ping())),
      this.probe('cache', async () => void (await this.redis.client.ping())),
    ];
  }

  /** Object storage always (local folder or S3); OCR service and time-series store when configured. */
  private storeChecks(): HealthIndicatorFunction[] {
    const checks = [
      this.stores.S3_ENDPOINT
        ? this.probe('storage', () => reachable(this.stores.S3_ENDPOINT!))
        : this.probe('storage', async () => {
            await mkdir(this.stores.STORAGE_DIR, { recursive: true });
            await access(this.stores.STORAGE_DIR, constants.W_OK);
          }),
    ];
    if (this.stores.OCR_ENABLED) checks.push(this.probe('ocr', () => this.ocrStatus()));
    if (this.stores.AI_LOG_INFLUX_URL) {
      checks.push(
        this.probe('timeseries', () =>
          reachable(new URL('/health', this.stores.AI_LOG_INFLUX_URL).toString()),
        ),
      );
    }
    return checks;
  }

  /** The OCR engine in use: the embedded one is always up; the HTTP service answers its /health. */
  private async ocrStatus(): Promise<Record<string, unknown>> {
    const extraction = this.moduleRef.get(TextExtraction, { strict: false });
    const status = await extraction.engine.status();
    if (!status.available) throw new Error('OCR service is not available');
    return { engine: extraction.engine.name, version: status.version };
  }

  private probe(key: string, check: () => Promise<Record<string, unknown> | void>): HealthIndicatorFunction {
    return async () => {
      const session = this.indicators.check(key);
      try {
        return session.up((await withTimeout(check())) ?? undefined);
      } catch (err) {
        return session.down({ message: (err as Error).message });
      }
    };
  }

  private async respond(
    res: Response,
    checks: HealthIndicatorFunction[],
    extra: Record<string, unknown>,
    showClients = true,
  ) {
    try {
      const result = await this.health.check(checks);
      res.status(200).json({ ...(showClients ? result : withoutClients(result)), ...extra });
    } catch (err) {
      const body = (err as { response?: Record<string, unknown> }).response ?? { status: 'error' };
      res.status(503).json({ ...(showClients ? body : withoutClients(body)), ...extra });
    }
  }

  private features(): Record<string, boolean> {
    return {
      multitenancy: this.config.MULTITENANCY_DATABASE_ENABLED,
      autoMigrate: this.config.MULTITENANCY_DATABASE_AUTO_MIGRATE,
      smtp: Boolean(this.config.SMTP_URL),
      swagger: this.config.SWAGGER_ENABLED,
      queueProcessors: this.config.QUEUE_PROCESSORS_ENABLED,
      metricsProtected: Boolean(this.config.METRICS_TOKEN),
      ocr: this.stores.OCR_ENABLED,
      s3Storage: Boolean(this.stores.S3_ENDPOINT),
      influxConversationLog: Boolean(this.stores.AI_LOG_INFLUX_URL),
    };
  }
}

/** A terminus result without its `client:*` entries (in info, error and details). */
function withoutClients(result: object): object {
  const copy: Record<string, unknown> = { ...result };
  for (const section of ['info', 'error', 'details']) {
    const entries = copy[section];
    if (entries && typeof entries === 'object') {
      copy[section] = Object.fromEntries(Object.entries(entries).filter(([key]) => !CLIENT_CHECK.test(key)));
    }
  }
  return copy;
}
