import { SmtpSink } from '../support/smtp-sink';
import { bootApp, ProvisionedClient, provisionClient, TestApp } from '../support/test-app';

/** One grammar for every date and datetime: other ISO 8601 forms and impossible dates are 400s. */
describe('dates', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let acme: ProvisionedClient;

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    t = await bootApp({ env: { SMTP_URL: sink.url } });
    acme = await provisionClient(t, sink, 'acme');
  });
  afterAll(async () => {
    await t?.close();
    await sink?.stop();
  });

  const api = (method: 'get' | 'post' | 'put', path: string) =>
    t
      .http()
      [method](path)
      .set({ 'X-Client-ID': 'acme', Authorization: `Bearer ${acme.adminToken}` });
  const detailsOf = (res: { body: { error?: { details?: { field: string; message: string }[] } } }) =>
    res.body.error?.details ?? [];

  const BAD = [
    '2026-W01',
    '2026-W01-1',
    '20261125T101010Z',
    '2026-11-25T10:10:10,5Z',
    '2026-02-31',
    '2026-11-25T25:00Z',
  ];
  let permit = 0;
  const targets: [string, string, () => Record<string, unknown>][] = [
    ['/api/outages', 'plannedStart', () => ({ title: 'Dated', outageType: 'PLANNED' })],
    [
      '/api/permits',
      'expiryDate',
      () => ({ permitNumber: `DATE-${++permit}`, title: 'Dated', permitType: 'AIR' }),
    ],
  ];

  it('answers 400 VALIDATION_ERROR naming the field for week, basic, comma and impossible forms', async () => {
    for (const [path, field, body] of targets) {
      for (const text of BAD) {
        const res = await api('post', path).send({ ...body(), [field]: text });
        expect([path, text, res.status, res.body.error?.code, detailsOf(res).map((d) => d.field)]).toEqual([
          path,
          text,
          400,
          'VALIDATION_ERROR',
          [field],
        ]);
      }
    }
  });

  it('stores a valid date or datetime as given, no zone meaning UTC, also on PUT', async () => {
    for (const [path, field, body] of targets) {
      const created = await api('post', path)
        .send({ ...body(), [field]: '2026-11-25T10:10:10.5+02:00' })
        .expect(201);
      expect(created.body.data[field]).toBe('2026-11-25T08:10:10.500Z');
      const id: number = created.body.data.id;
      const changed = await api('put', `${path}/${id}`)
        .send({ [field]: '2028-02-29' })
        .expect(200);
      expect(changed.body.data[field]).toBe('2028-02-29T00:00:00.000Z');
      const refused = await api('put', `${path}/${id}`)
        .send({ [field]: '2027-02-29' })
        .expect(400);
      expect(detailsOf(refused).map((d) => d.field)).toEqual([field]);
      const read = await api('get', `${path}/${id}`).expect(200);
      expect(read.body.data[field]).toBe('2028-02-29T00:00:00.000Z');
    }
  });

  it('applies the same grammar to audit query periods', async () => {
    const res = await api('get', '/compliance/audit/errors?startDate=2026-W01').expect(400);
    expect(detailsOf(res).map((d) => d.field)).toEqual(['startDate']);
    await api('get', '/compliance/audit/errors?startDate=2026-01-01&endDate=2026-12-31T23:59Z').expect(200);
  });
});
