import { bootControllerApp, ControllerApp, PASSED_GUARD_HEADER } from '../support/controller-app';

/** Validation rules, checked through the real pipe and filter (the stubbed services answer nothing). */
describe('controller tier: validation', () => {
  let t: ControllerApp;
  let admin: string;

  beforeAll(async () => {
    t = await bootControllerApp();
    admin = t.bearer({ role: 'ADMIN' });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers: {
        'x-client-id': 'acme',
        authorization: admin,
        'content-type': 'application/json',
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }

  it('an unknown body field is a 400 VALIDATION_ERROR naming the field', async () => {
    const res = await send('POST', '/api/units', { name: 'Unit 1', colour: 'red' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(res.body.error.details).toEqual([{ field: 'colour', message: 'colour is not allowed' }]);
  });

  it('a missing required field is a 400 VALIDATION_ERROR naming the field', async () => {
    const res = await send('POST', '/api/units', {});
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain('name');
  });

  it('a valid body passes the pipe and reaches the controller', async () => {
    const res = await send('POST', '/api/units', { name: 'Unit 1', capacityMw: 12.5 });
    expect(res.status).toBe(201);
  });

  it.each(['abc', '0', '-1', '1.5', '9999999999999999', '1e3', '0x10', '%207'])(
    'path id %p is a 400 VALIDATION_ERROR',
    async (id) => {
      const res = await send('GET', `/api/units/${id}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'id' }] });
    },
  );

  it('a positive integer path id passes', async () => {
    expect((await send('GET', '/api/work-orders/42')).status).toBe(200);
  });

  it.each([
    ['pageSize=101', 400],
    ['pageSize=0', 400],
    ['page=0', 400],
    ['page=x', 400],
    ['bogus=1', 400],
    ['pageSize=100&page=3', 200],
    ['client=acme&sandbox=public', 200],
  ])('GET /api/units?%s answers %p', async (query, status) => {
    const res = await send('GET', `/api/units?${query}`);
    expect(res.status).toBe(status);
    if (status === 400) expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('a malformed JSON body is a 400 with the envelope', async () => {
    const res = await send('POST', '/api/units', '{"name":');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
  });

  it('the guard answers before validation: a refused caller gets 403, not 400', async () => {
    const res = await send(
      'POST',
      '/api/units',
      { colour: 'red' },
      { authorization: t.bearer({ role: 'VIEWER' }) },
    );
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect(res.headers.get(PASSED_GUARD_HEADER)).toBeNull();
  });

  it('a missing credential is a 401 in the envelope', async () => {
    const res = await send('GET', '/api/units', undefined, { authorization: '' });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });
});
