import { context, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import Bull from 'bull';

type ProcessJob = (this: Bull.Queue, job: Bull.Job | undefined, notFetch?: boolean) => Promise<unknown>;

/**
 * Bull has no OpenTelemetry instrumentation: each job a worker runs becomes a consumer span
 * `bull.process <queue>`, active while the job runs, so its PostgreSQL, Redis and HTTP spans are its
 * children. Patched before any queue is opened (queues bind processJob when created).
 */
export function instrumentBull(): void {
  const prototype = Bull.prototype as unknown as { processJob: ProcessJob };
  const original = prototype.processJob;
  const tracer = trace.getTracer('svc-platform-bull');
  prototype.processJob = function (this: Bull.Queue, job, notFetch) {
    if (!job) return original.call(this, job, notFetch);
    const attributes = {
      'messaging.system': 'bull',
      'messaging.destination.name': this.name,
      'messaging.message.id': String(job.id),
    };
    return tracer.startActiveSpan(
      `bull.process ${this.name}`,
      { kind: SpanKind.CONSUMER, attributes },
      context.active(),
      (span: Span) =>
        original.call(this, job, notFetch).then(
          (result) => {
            span.end();
            return result;
          },
          (err: Error) => {
            span.recordException(err);
            span.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
            span.end();
            throw err;
          },
        ),
    );
  };
}
