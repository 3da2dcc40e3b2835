import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { MetricsService } from '../observability/metrics/metrics.service';
import { OcrQueue } from './ocr-queue';

/** OCR metrics in the app's registry (Prometheus spelling of the spec's names). */
@Injectable()
export class OcrMetrics {
  readonly processed: Counter;
  readonly success: Counter;
  readonly failed: Counter;
  readonly retry: Counter;
  readonly retryAll: Counter;
  /** Documents that ended FAILED in this process and were not retried since. */
  readonly failedGauge: Gauge;
  readonly duration: Histogram;

  constructor(metrics: MetricsService, queue: OcrQueue) {
    const registers = [metrics.registry];
    const counter = (name: string, help: string) => new Counter({ name, help, registers });
    this.processed = counter('ocr_documents_processed_total', 'Documents whose text extraction ended');
    this.success = counter('ocr_documents_success_total', 'Documents whose text was extracted');
    this.failed = counter('ocr_documents_failed_total', 'Documents whose text extraction failed');
    this.retry = counter('ocr_retry_total', 'Documents queued again by retry, analyze or process');
    this.retryAll = counter('ocr_retry_all_total', 'Retry-all-failed requests');
    const counts = async () =>
      (await queue.queue.getJobCounts().catch(() => null)) as Record<string, number> | null;
    new Gauge({
      name: 'ocr_queue_pending',
      help: "OCR jobs waiting: their client's turn, a worker or a retry",
      registers,
      async collect() {
        const [c, backlog] = await Promise.all([counts(), queue.backlog().catch(() => null)]);
        if (c && backlog !== null) this.set((c.waiting ?? 0) + (c.delayed ?? 0) + backlog);
      },
    });
    new Gauge({
      name: 'ocr_queue_processing',
      help: 'OCR jobs running',
      registers,
      async collect() {
        const c = await counts();
        if (c) this.set(c.active ?? 0);
      },
    });
    this.failedGauge = new Gauge({
      name: 'ocr_queue_failed',
      help: 'Documents whose text extraction failed in this process',
      registers,
    });
    this.duration = new Histogram({
      name: 'ocr_processing_duration_seconds',
      help: 'Duration of text extraction per document',
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    });
  }
}
