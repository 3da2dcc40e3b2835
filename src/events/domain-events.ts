import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner } from 'typeorm';
import type { TransactionCommitEvent } from 'typeorm/subscriber/event/TransactionCommitEvent';
import { PRODUCTION_SCHEMA, TenantClient, tenantContext } from '../tenancy/tenant-context';
import { DomainEvent } from './domain-event';
import { OutboxRelay } from './outbox-relay';
import { OutboxRepository } from './outbox.repository';

/**
 * The in-app event bus, backed by a transactional outbox: `publish` writes the event into
 * `event_outbox` with the manager of the transaction that makes the change, so the change and its
 * event commit (or roll back) together. Once that transaction commits, the tenant is signalled to
 * the relays (Redis) and this process's relay moves the event on at once; the relays' sweep picks up
 * whatever a lost signal missed (crash, Redis down).
 *
 * Events raised in a sandbox schema are not published: sandboxes hold test data and never reach
 * external receivers.
 */
@Injectable()
export class DomainEvents {
  private readonly pending = new WeakMap<QueryRunner, TenantClient>();
  private readonly watched = new WeakSet<DataSource>();

  constructor(
    private readonly relay: OutboxRelay,
    private readonly outbox: OutboxRepository,
  ) {}

  async publish(manager: EntityManager, event: DomainEvent): Promise<void> {
    const store = tenantContext.get();
    if (store.schema !== PRODUCTION_SCHEMA) return;
    const runner = manager.queryRunner;
    if (!runner?.isTransactionActive) {
      throw new Error(`DomainEvents.publish(${event.event}) must run inside the transaction of the change`);
    }
    const metadata = {
      ...(event.metadata ?? {}),
      triggeredBy: store.principal?.userId ?? null,
      requestId: store.requestId,
    };
    await this.outbox.insert(manager, randomUUID(), { ...event, metadata });
    this.watch(manager.connection);
    this.pending.set(runner, store.client);
  }

  /** Registers (once per DataSource) the commit hook that signals the relay. */
  private watch(dataSource: DataSource) {
    if (this.watched.has(dataSource)) return;
    this.watched.add(dataSource);
    const subscriber: EntitySubscriberInterface = {
      afterTransactionCommit: (e: TransactionCommitEvent) => {
        const client = this.pending.get(e.queryRunner);
        if (!client || e.queryRunner.isTransactionActive) return;
        this.pending.delete(e.queryRunner);
        void this.relay.committed(client);
      },
      afterTransactionRollback: (e: TransactionCommitEvent) => {
        if (!e.queryRunner.isTransactionActive) this.pending.delete(e.queryRunner);
      },
    };
    dataSource.subscribers.push(subscriber);
  }
}
