import { Injectable, OnModuleInit } from '@nestjs/common';
import { OutboxEvent } from '../events/domain-event';
import { OutboxConsumer, OutboxRelay } from '../events/outbox-relay';
import { OcrQueue } from './ocr-queue';

/**
 * Feeds the OCR queue from the outbox: a `document.created` event of a document waiting for
 * extraction becomes a job once the relay's transaction commits. The upload and its event commit
 * together, so an upload is never lost between its commit and the queue.
 */
@Injectable()
export class OcrDispatcher implements OutboxConsumer, OnModuleInit {
  constructor(
    private readonly relay: OutboxRelay,
    private readonly queue: OcrQueue,
  ) {}

  onModuleInit() {
    this.relay.register(this);
  }

  consume(_m: unknown, events: OutboxEvent[]) {
    const ids = events
      .filter(
        (e) => e.event === 'document.created' && e.attributes.status === 'PENDING' && e.entityId !== null,
      )
      .map((e) => e.entityId!);
    return Promise.resolve(() => this.queue.enqueue(ids));
  }
}
