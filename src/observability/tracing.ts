/* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
import { loadSettings } from '../config/load-settings';
import { OperationsSettings } from './operations.settings';

/**
 * OpenTelemetry for HTTP (in and out), PostgreSQL (pg), Redis (ioredis) and Bull jobs (tracing-bull.ts),
 * exported over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT. Without that setting nothing is loaded and
 * nothing is patched. Must run before the application's modules are loaded (see tracing-start.ts).
 */
export function startTracing(env: NodeJS.ProcessEnv = process.env): boolean {
  const { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: serviceName } = loadSettings(
    OperationsSettings,
    env,
  );
  if (!endpoint) return false;
  const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node');
  const { BatchSpanProcessor } = require('@opentelemetry/sdk-trace-base');
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http');
  const { resourceFromAttributes } = require('@opentelemetry/resources');
  const { registerInstrumentations } = require('@opentelemetry/instrumentation');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg');
  const { IORedisInstrumentation } = require('@opentelemetry/instrumentation-ioredis');

  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` })),
    ],
  });
  provider.register();
  registerInstrumentations({
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req: { url?: string }) =>
          /^\/(management\/health|metrics)/.test(req.url ?? ''),
      }),
      new PgInstrumentation({ enhancedDatabaseReporting: false }),
      new IORedisInstrumentation({ dbStatementSerializer: (command: string) => command }),
    ],
  });
  require('./tracing-bull').instrumentBull();
  process.once('beforeExit', () => void provider.shutdown());
  return true;
}
