import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { Receiver, standardSignature, svcSignature, until } from './receiver';

interface DeliveryRecord {
  status: string;
  attemptCount: number;
  responseStatus: number | null;
}

describe('outbound webhooks', () => {
  let sink: SmtpSink;
  let receiver: Receiver;
  let t: TestApp;
  let acme: ProvisionedClient;

  const api = (method: 'get' | 'post' | 'put' | 'delete', path: string) =>
    t.http()[method](path).set('X-Client-ID', 'acme').set('Authorization', `Bearer ${acme.adminToken}`);

  const createWebhook = async (body: Record<string, unknown>) => {
    const res = await api('post', '/api/admin/webhooks').send(body);
    expect(res.status).toBe(201);
    return res.body as { data: { id: number; secret: string }; meta: { message: string } };
  };
  const delivery = async (webhookId: number) => {
    const res = await api('get', `/api/admin/webhooks/${webhookId}/deliveries`);
    return res.body.data[0];
  };

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    receiver = await new Receiver().start();
    t = await bootApp({
      env: {
        SMTP_URL: sink.url,
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_RETRY_DELAYS_MS: '200,400,800',
        WEBHOOK_SWEEP_INTERVAL_MS: '500',
        EVENT_RELAY_POLL_MS: '200',
        WEBHOOK_WORKER_CONCURRENCY: '4',
        WEBHOOK_ENDPOINT_CONCURRENCY: '2',
      },
    });
    acme = await provisionClient(t, sink, 'acme');
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
    await sink?.stop();
  });

  it('shows the secret once, then only hasSecret and secretPreview', async () => {
    const created = await createWebhook({
      name: 'Once',
      url: receiver.url('/once'),
      events: ['unit.created'],
    });
    expect(Object.keys(created.data).sort()).toEqual(
      ['createdAt', 'events', 'hasSecret', 'id', 'isActive', 'name', 'secret', 'secretPreview', 'url'].sort(),
    );
    expect(created.data.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(created.meta.message).toMatch(/secret/i);
    const got = await api('get', `/api/admin/webhooks/${created.data.id}`);
    expect(got.status).toBe(200);
    expect(got.body.data.hasSecret).toBe(true);
    expect(created.data.secret.startsWith(got.body.data.secretPreview.replace(/\.\.\.$/, ''))).toBe(true);
    expect(JSON.stringify(got.body)).not.toContain(created.data.secret);
    const regenerated = await api('post', `/api/admin/webhooks/${created.data.id}/regenerate-secret`);
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.data.secret).not.toEqual(created.data.secret);
    const after = await api('get', `/api/admin/webhooks/${created.data.id}`);
    expect(JSON.stringify(after.body)).not.toContain(regenerated.body.data.secret);
  });

  it('rejects bad configuration with VALIDATION_ERROR details', async () => {
    const bad = await api('post', '/api/admin/webhooks').send({
      name: 'x'.repeat(101),
      description: 'd'.repeat(501),
      url: receiver.url('/bad'),
      events: ['unit.created', 'nope.event'],
      httpMethod: 'GET',
      customHeaders: { 'X-SVC-Signature': 'forged' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    const fields = bad.body.error.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'description', 'events', 'httpMethod']));
    const headers = await api('post', '/api/admin/webhooks').send({
      name: 'h',
      url: receiver.url('/h'),
      customHeaders: { 'X-SVC-Signature': 'forged' },
    });
    expect(headers.status).toBe(400);
    expect(headers.body.error.details[0].field).toBe('customHeaders.X-SVC-Signature');
    const unknownField = await api('post', '/api/admin/webhooks').send({
      name: 'u',
      url: receiver.url('/u'),
      secret: 's',
    });
    expect(unknownField.status).toBe(400);
    const missing = await api('get', '/api/admin/webhooks/999999');
    expect(missing.status).toBe(404);
    expect((await t.http().get('/api/admin/webhooks/event-types').set('X-Client-ID', 'acme')).status).toBe(
      401,
    );
  });

  it('limits a company to 20 webhooks', async () => {
    const probe = await api('post', '/api/units').send({ name: 'Company probe' });
    const companyId = probe.body.data.companyId as number;
    expect(companyId).toEqual(expect.any(Number));
    for (let i = 0; i < 20; i++) {
      await createWebhook({ name: `Limit ${i}`, url: receiver.url('/limit'), companyId });
    }
    const over = await api('post', '/api/admin/webhooks').send({
      name: 'One too many',
      url: receiver.url('/limit'),
      companyId,
    });
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('VALIDATION_ERROR');
    expect(over.body.error.details[0]).toEqual({ field: 'companyId', message: expect.stringMatching(/20/) });
    const list = await api('get', `/api/admin/webhooks/company/${companyId}`);
    expect(list.body.data).toHaveLength(20);
    for (const hook of list.body.data) {
      expect((await api('delete', `/api/admin/webhooks/${hook.id}`)).status).toBe(204);
    }
  });

  it('lists more than 70 event types with group and description', async () => {
    const res = await api('get', '/api/admin/webhooks/event-types');
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(70);
    const codes = res.body.data.map((e: { code: string }) => e.code);
    expect(codes).toEqual(
      expect.arrayContaining([
        '*',
        'webhook.ping',
        'unit.created',
        'work_order.status_changed',
        'outage.completed',
        'permit.expiring',
      ]),
    );
    for (const e of res.body.data)
      expect(e).toEqual({
        code: expect.any(String),
        group: expect.any(String),
        description: expect.any(String),
      });
  });

  it('delivers a signed unit.created payload to a subscribed receiver', async () => {
    const hook = await createWebhook({
      name: 'Units',
      url: receiver.url('/units'),
      events: ['unit.created'],
      customHeaders: { 'X-Api-Key': 'k-123' },
    });
    await createWebhook({ name: 'Not subscribed', url: receiver.url('/other'), events: ['failure.created'] });
    const unit = await api('post', '/api/units').send({
      name: 'Gas turbine 1',
      code: 'GT-1',
      capacityMw: 250.5,
    });
    expect(unit.status).toBe(201);
    const [req] = await receiver.waitFor('/units');
    const secret = hook.data.secret;
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-api-key']).toBe('k-123');
    expect(req.headers['x-svc-event']).toBe('unit.created');
    expect(req.headers['x-svc-signature']).toBe(svcSignature(secret, req.raw));
    expect(Math.abs(Number(req.headers['x-svc-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    expect(req.headers['webhook-id']).toBe(req.body.eventId);
    expect(req.headers['webhook-signature']).toBe(
      standardSignature(
        secret,
        String(req.headers['webhook-id']),
        String(req.headers['webhook-timestamp']),
        req.raw,
      ),
    );
    expect(req.body).toEqual({
      eventId: expect.any(String),
      event: 'unit.created',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      webhookId: hook.data.id,
      apiVersion: '1.0',
      data: {
        id: unit.body.data.id,
        type: 'Unit',
        attributes: expect.objectContaining({ name: 'Gas turbine 1', code: 'GT-1', capacityMw: 250.5 }),
        previous: null,
      },
      metadata: expect.objectContaining({ client: 'acme' }),
    });
    const record = await until(
      () => delivery(hook.data.id),
      (d) => d?.status === 'SUCCESS',
    );
    expect(record).toMatchObject({
      id: Number(req.headers['x-svc-delivery']),
      webhookId: hook.data.id,
      eventType: 'unit.created',
      attemptCount: 1,
      responseStatus: 200,
      durationMs: expect.any(Number),
    });
    expect(receiver.at('/other')).toHaveLength(0);
    const one = await api('get', `/api/admin/webhooks/deliveries/${record.id}`);
    expect(one.body.data.status).toBe('SUCCESS');
  });

  it('emits work_order.* with status_changed and previous values', async () => {
    await createWebhook({
      name: 'Orders',
      url: receiver.url('/orders'),
      events: ['work_order.status_changed', 'work_order.updated'],
    });
    const unit = await api('post', '/api/units').send({ name: 'Steam turbine' });
    const order = await api('post', '/api/work-orders').send({
      title: 'Inspect blades',
      unitId: unit.body.data.id,
    });
    expect(order.status).toBe(201);
    const updated = await api('put', `/api/work-orders/${order.body.data.id}`).send({
      status: 'IN_PROGRESS',
    });
    expect(updated.status).toBe(200);
    const got = await receiver.waitFor('/orders', 2);
    const changed = got.find((r) => r.body.event === 'work_order.status_changed')!;
    expect(changed.body.data.previous).toEqual({ status: 'OPEN' });
    expect(changed.body.data.attributes.status).toBe('IN_PROGRESS');
    const update = got.find((r) => r.body.event === 'work_order.updated')!;
    expect(update.body.data.previous.status).toBe('OPEN');
    const list = await api('get', '/api/work-orders').query({ pageSize: 10 });
    expect(list.body.meta.pagination).toMatchObject({ page: 1, pageSize: 10, total: 1 });
    const badUnit = await api('post', '/api/work-orders').send({ title: 'x', unitId: 999999 });
    expect(badUnit.status).toBe(400);
    expect(badUnit.body.error.details[0].field).toBe('unitId');
    const inUse = await api('delete', `/api/units/${unit.body.data.id}`);
    expect(inUse.status).toBe(409);
  });

  it('retries on the configured schedule, then FAILED; a manual retry delivers', async () => {
    receiver.status('/flaky', 500);
    const hook = await createWebhook({
      name: 'Flaky',
      url: receiver.url('/flaky'),
      events: ['failure.created'],
      maxRetries: 3,
    });
    const unit = await api('post', '/api/units').send({ name: 'Boiler' });
    await api('post', '/api/failures').send({ title: 'Leak', unitId: unit.body.data.id }).expect(201);
    const attempts = await receiver.waitFor('/flaky', 4);
    const gaps = attempts.slice(1).map((r, i) => r.at - attempts[i].at);
    expect(gaps[0]).toBeGreaterThanOrEqual(180);
    expect(gaps[1]).toBeGreaterThanOrEqual(380);
    expect(gaps[2]).toBeGreaterThanOrEqual(780);
    expect(gaps[2]).toBeLessThan(3000);
    expect(new Set(attempts.map((r) => r.body.eventId)).size).toBe(1);
    const failed = await until(
      () => delivery(hook.data.id),
      (d) => d?.status === 'FAILED',
    );
    expect(failed).toMatchObject({
      attemptCount: 4,
      responseStatus: 500,
      errorMessage: expect.stringMatching(/500/),
    });
    await new Promise((r) => setTimeout(r, 1000));
    expect(receiver.at('/flaky')).toHaveLength(4);

    receiver.status('/flaky', 204);
    const retried = await api('post', `/api/admin/webhooks/deliveries/${failed.id}/retry`);
    expect(retried.status).toBe(202);
    const ok = await until(
      () => delivery(hook.data.id),
      (d) => d?.status === 'SUCCESS',
    );
    expect(ok).toMatchObject({ attemptCount: 5, responseStatus: 204 });
    const again = await api('post', `/api/admin/webhooks/deliveries/${failed.id}/retry`);
    expect(again.status).toBe(409);
  });

  it('disables a webhook after N consecutive failures; enable resets the counter', async () => {
    receiver.status('/dead', 503);
    const hook = await createWebhook({
      name: 'Dead',
      url: receiver.url('/dead'),
      events: ['unit.updated'],
      maxRetries: 0,
      autoDisableAfterFailures: 2,
    });
    const unit = await api('post', '/api/units').send({ name: 'Wind 1' });
    await api('put', `/api/units/${unit.body.data.id}`).send({ location: 'A' }).expect(200);
    await receiver.waitFor('/dead', 1);
    await api('put', `/api/units/${unit.body.data.id}`).send({ location: 'B' }).expect(200);
    const disabled = await until(
      async () => (await api('get', `/api/admin/webhooks/${hook.data.id}`)).body.data,
      (w) => w.isActive === false,
    );
    expect(disabled.consecutiveFailures).toBe(2);
    await api('put', `/api/units/${unit.body.data.id}`).send({ location: 'C' }).expect(200);
    await new Promise((r) => setTimeout(r, 800));
    expect(receiver.at('/dead')).toHaveLength(2);
    const enabled = await api('post', `/api/admin/webhooks/${hook.data.id}/enable`);
    expect(enabled.body.data).toMatchObject({ isActive: true, consecutiveFailures: 0 });
  });

  it('keeps a hanging receiver from delaying a healthy one', async () => {
    receiver.on('/hang', () => undefined); // never answers
    await createWebhook({
      name: 'Hanging',
      url: receiver.url('/hang'),
      events: ['failure.updated'],
      timeoutMs: 5000,
      maxRetries: 0,
      autoDisableAfterFailures: 0,
    });
    await createWebhook({ name: 'Healthy', url: receiver.url('/healthy'), events: ['failure.updated'] });
    const unit = await api('post', '/api/units').send({ name: 'Isolation' });
    const failure = await api('post', '/api/failures').send({
      title: 'Vibration',
      unitId: unit.body.data.id,
    });
    const started = Date.now();
    for (let i = 0; i < 6; i++) {
      await api('put', `/api/failures/${failure.body.data.id}`)
        .send({ description: `check ${i}` })
        .expect(200);
    }
    // 4 worker slots, at most 2 of them for one endpoint: the healthy receiver never waits for the 5 s timeout.
    const healthy = await receiver.waitFor('/healthy', 6, 4000);
    expect(Math.max(...healthy.map((r) => r.at)) - started).toBeLessThan(3500);
    expect(receiver.at('/hang').length).toBeLessThanOrEqual(2);
  });

  it('sends a test ping on demand', async () => {
    const hook = await createWebhook({ name: 'Ping', url: receiver.url('/ping'), events: [] });
    const res = await api('post', `/api/admin/webhooks/${hook.data.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'SUCCESS', eventType: 'webhook.ping', attemptCount: 1 });
    const [req] = await receiver.waitFor('/ping');
    expect(req.body.eventId).toMatch(/^ping-\d+$/);
    expect(req.body.event).toBe('webhook.ping');
    expect(req.body.data.type).toBe('WebhookTest');
    expect(req.body.data.attributes.message).toEqual(expect.any(String));
    expect(req.headers['x-svc-signature']).toBe(svcSignature(hook.data.secret, req.raw));
  });

  it('records each of many concurrent deliveries once, as SUCCESS after one attempt', async () => {
    const hooks = await Promise.all(
      ['a', 'b'].map((x) =>
        createWebhook({ name: `Burst ${x}`, url: receiver.url(`/burst-${x}`), events: ['unit.created'] }),
      ),
    );
    const units = await Promise.all(
      Array.from({ length: 12 }, (_, i) => api('post', '/api/units').send({ name: `Burst ${i}` })),
    );
    expect(units.map((u) => u.status)).toEqual(Array(12).fill(201));
    const ids = units.map((u) => u.body.data.id as number).sort();
    for (const hook of hooks) {
      const records = await until(
        async () => (await api('get', `/api/admin/webhooks/${hook.data.id}/deliveries?limit=50`)).body.data,
        (rows: DeliveryRecord[]) => rows.length === 12 && rows.every((r) => r.status === 'SUCCESS'),
      );
      expect(records.map((r) => r.attemptCount)).toEqual(Array(12).fill(1));
      expect(records.every((r) => r.responseStatus === 200)).toBe(true);
      const path = hook.data.id === hooks[0].data.id ? '/burst-a' : '/burst-b';
      const received = receiver.at(path).map((r) => r.body.data.id as number);
      expect(received.sort()).toEqual(ids);
    }
  });

  it('exposes delivery metrics', async () => {
    const res = await t.http().get('/metrics');
    expect(res.text).toMatch(/webhook_deliveries_total\{status="SUCCESS"\} [1-9]/);
    expect(res.text).toContain('webhook_delivery_attempt_duration_seconds_bucket');
    expect(res.text).toContain('webhook_queue_jobs');
  });
});
