import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { CONTRACT_EXEMPT_HEADER, checkResponses } from './contract-hook';
import { ResponseContract } from './response-contract';

/** A small document with what the API's uses: $ref, nullable, date-time, a path template. */
const DOCUMENT = {
  openapi: '3.0.0',
  info: { title: 'contract check', version: '1' },
  paths: {
    '/things/{id}': {
      get: {
        operationId: 'getThing',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': {
            description: 'the thing',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingAnswer' } } },
          },
          '404': {
            description: 'NOT_FOUND',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        },
      },
      delete: { operationId: 'deleteThing', responses: { '204': { description: 'deleted' } } },
    },
    '/things/{id}/photo': {
      get: {
        operationId: 'thingPhoto',
        responses: { '200': { description: 'photo', content: { 'image/*': {} } } },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        required: ['id', 'name', 'createdAt', 'note'],
        properties: {
          id: { type: 'integer' },
          name: { type: 'string' },
          createdAt: { type: 'string', format: 'date-time' },
          note: { type: 'string', nullable: true },
        },
      },
      ThingAnswer: {
        type: 'object',
        required: ['data'],
        properties: { data: { $ref: '#/components/schemas/Thing' } },
      },
      Error: {
        type: 'object',
        required: ['error'],
        properties: {
          error: {
            type: 'object',
            required: ['code'],
            properties: { code: { type: 'string' }, status: { type: 'integer' } },
          },
        },
      },
    },
  },
};

const thing = { id: 7, name: 'pump', createdAt: '2026-11-24T08:00:00.000Z', note: null };
const json = (body: unknown) => ({
  contentType: 'application/json; charset=utf-8',
  ...text(JSON.stringify(body)),
});
const text = (body: string) => ({ body, bytes: Buffer.byteLength(body) });

describe('response contract', () => {
  let contract: ResponseContract;

  beforeAll(async () => {
    contract = await ResponseContract.load(DOCUMENT);
  });

  it('passes an answer as documented, nullable and $ref included', () => {
    const res = { method: 'GET', url: '/things/7?x=1', status: 200, ...json({ data: thing }) };
    expect(contract.problems(res)).toEqual([]);
    expect(contract.problems({ ...res, ...json({ data: { ...thing, note: 'ok' } }) })).toEqual([]);
    expect(contract.problems({ method: 'DELETE', url: '/things/7', status: 204, bytes: 0 })).toEqual([]);
  });

  it('fails a body that does not match its schema', () => {
    const wrong = { method: 'GET', url: '/things/7', status: 200, ...json({ data: { ...thing, id: '7' } }) };
    expect(contract.problems(wrong)).toEqual(['/data/id must be integer (type="integer")']);
    const missing = { method: 'GET', url: '/things/7', status: 200, ...json({ data: { id: 7 } }) };
    expect(contract.problems(missing).join()).toContain("must have required property 'name'");
    const badDate = {
      method: 'GET',
      url: '/things/7',
      status: 200,
      ...json({ data: { ...thing, createdAt: 'soon' } }),
    };
    expect(contract.problems(badDate)).toEqual([
      '/data/createdAt must match format "date-time" (format="date-time")',
    ]);
    const error = { method: 'GET', url: '/things/7', status: 404, ...json({ message: 'gone' }) };
    expect(contract.problems(error)).toEqual([
      '(body) must have required property \'error\' (missingProperty="error")',
    ]);
  });

  it('fails an undocumented status, content type, body or operation', () => {
    expect(contract.problems({ method: 'GET', url: '/things/7', status: 409, ...json({}) })).toEqual([
      'status 409 is not documented (documented: 200, 404)',
    ]);
    expect(
      contract.problems({
        method: 'GET',
        url: '/things/7',
        status: 200,
        contentType: 'text/html',
        ...text('<p>'),
      }),
    ).toEqual(['content type text/html is not documented (documented: application/json)']);
    expect(contract.problems({ method: 'DELETE', url: '/things/7', status: 204, bytes: 0 })).toEqual([]);
    expect(contract.problems({ method: 'GET', url: '/things/7', status: 200, bytes: 0 })).toEqual([
      'empty body where the document declares application/json',
    ]);
    expect(contract.problems({ method: 'POST', url: '/things', status: 201, ...json({}) })).toEqual([
      'no operation of the document matches POST /things',
    ]);
    expect(
      contract.problems({
        method: 'GET',
        url: '/things/7/photo',
        status: 200,
        contentType: 'image/png',
        ...text('png'),
      }),
    ).toEqual([]);
  });

  describe('on a server', () => {
    let server: Server;
    let base: string;
    let answer: { status: number; body: unknown };

    beforeAll(async () => {
      server = createServer((_req, res) => {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        // Two writes, as a streamed answer: the check sees the whole body.
        const body = JSON.stringify(answer.body);
        res.write(body.slice(0, 5));
        res.end(body.slice(5));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    it('records a violation before the client has the answer, and none for a matching answer', async () => {
      const seen: string[] = [];
      checkResponses(server, contract, (violation) => seen.push(violation));

      answer = { status: 200, body: { data: thing } };
      expect((await fetch(`${base}/things/7`)).status).toBe(200);
      expect(seen).toEqual([]);

      answer = { status: 200, body: { data: { ...thing, name: 3 } } };
      expect(await (await fetch(`${base}/things/7`)).json()).toEqual(answer.body);
      expect(seen).toEqual(['GET /things/7 -> 200: /data/name must be string (type="string")']);

      seen.length = 0;
      await fetch(`${base}/things/7`, { headers: { [CONTRACT_EXEMPT_HEADER]: 'malformed on purpose' } });
      expect(seen).toEqual([]);
    });
  });
});
