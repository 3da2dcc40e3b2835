import http from 'node:http';
import { AddressInfo } from 'node:net';
import { guardedLookup, Resolver } from './address-guard';
import { OutboundClient, OutboundError } from './outbound-client';

/** A real local peer: /json, /big (1 MB), /events (1 MB of server-sent events), /slow (never answers), /redirect, /echo. */
function startPeer(): Promise<{ server: http.Server; base: string }> {
  const server = http.createServer((req, res) => {
    if (req.url === '/json') return res.end(JSON.stringify({ hello: 'world' }));
    if (req.url === '/big') return res.end(Buffer.alloc(1024 * 1024, 'x'));
    if (req.url === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      return res.end(Buffer.alloc(1024 * 1024, 'x'));
    }
    if (req.url === '/slow') return;
    if (req.url === '/redirect') {
      res.writeHead(302, { location: '/json' });
      return res.end();
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () =>
      res.end(
        JSON.stringify({
          method: req.method,
          type: req.headers['content-type'],
          encoding: req.headers['accept-encoding'] ?? null,
          body: Buffer.concat(chunks).toString(),
        }),
      ),
    );
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

describe('OutboundClient', () => {
  let peer: { server: http.Server; base: string };
  const trusted = new OutboundClient(false);
  const guarded = new OutboundClient(true);
  const limits = { timeoutMs: 2000, maxResponseBytes: 64 * 1024 };

  beforeAll(async () => (peer = await startPeer()));
  afterAll(async () => {
    trusted.destroy();
    guarded.destroy();
    peer.server.closeAllConnections();
    await new Promise((r) => peer.server.close(r));
  });

  const fail = (p: Promise<unknown>) =>
    p.then(
      () => {
        throw new Error('expected a failure');
      },
      (err: OutboundError) => err,
    );

  it('answers status and body, cuts a long body and does not follow redirects', async () => {
    const json = await trusted.send({ url: `${peer.base}/json`, ...limits });
    expect(json.status).toBe(200);
    expect(JSON.parse(json.body.toString())).toEqual({ hello: 'world' });
    const big = await trusted.send({ url: `${peer.base}/big`, ...limits });
    expect(big.truncated).toBe(true);
    expect(big.body.length).toBe(64 * 1024);
    const redirect = await trusted.send({ url: `${peer.base}/redirect`, ...limits });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.location).toBe('/json');
  });

  it('times out', async () => {
    const err = await fail(trusted.send({ url: `${peer.base}/slow`, timeoutMs: 150, maxResponseBytes: 10 }));
    expect(err).toBeInstanceOf(OutboundError);
    expect(err.kind).toBe('timeout');
  });

  it('refuses loopback literals and names when guarded, at check and at connection time', async () => {
    const port = new URL(peer.base).port;
    for (const url of [
      `${peer.base}/json`,
      `http://[::ffff:127.0.0.1]:${port}/json`,
      `http://localhost:${port}/`,
    ]) {
      const err = await fail(guarded.send({ url, ...limits }));
      expect(err.kind).toBe('refused');
    }
    expect((await fail(guarded.send({ url: 'ftp://example.com/', ...limits }))).kind).toBe('refused');
  });

  it('checks the address connected to, and connects to exactly the addresses it checked', async () => {
    const port = Number(new URL(peer.base).port);
    // DNS answering a public address, then (rebinding) loopback: any blocked address refuses the name.
    const rebinding: Resolver = (_host, _opts, cb) =>
      cb(null, [
        { address: '93.184.215.14', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ]);
    const loopbackOnly: Resolver = (_host, _opts, cb) => cb(null, [{ address: '127.0.0.1', family: 4 }]);
    const get = (lookup: ReturnType<typeof guardedLookup>) =>
      new Promise<string>((resolve) => {
        const agent = new http.Agent({ lookup });
        http
          .get({ host: 'rebind.invalid', port, path: '/json', agent }, (res) => {
            res.resume();
            resolve(`HTTP ${res.statusCode}`);
          })
          .on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
      });
    expect(await get(guardedLookup(false, rebinding))).toBe('EBLOCKEDTARGET');
    expect(await get(guardedLookup(false, loopbackOnly))).toBe('EBLOCKEDTARGET');
    // The name does not exist in DNS: reaching the peer proves the socket used the addresses handed over.
    expect(await get(guardedLookup(true, loopbackOnly))).toBe('HTTP 200');
  });

  it('offers a fetch for SDKs with the same rules', async () => {
    const fetchFn = trusted.fetchFunction(limits);
    const echo = await fetchFn(`${peer.base}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' },
      body: JSON.stringify({ a: 1 }),
    });
    expect(await echo.json()).toEqual({
      method: 'POST',
      type: 'application/json',
      encoding: null,
      body: '{"a":1}',
    });
    const form = new FormData();
    form.append('file', new Blob(['%PDF-1.4']), 'a.pdf');
    const upload = (await (await fetchFn(`${peer.base}/echo`, { method: 'POST', body: form })).json()) as {
      type: string;
      body: string;
    };
    expect(upload.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload.body).toContain('%PDF-1.4');
    const redirect = await fetchFn(`${peer.base}/redirect`);
    expect(redirect.status).toBe(302);
    // A whole answer is read before fetch resolves, so the cap fails the call itself.
    await expect(fetchFn(`${peer.base}/big`)).rejects.toThrow(/larger than/);
    // A streamed answer resolves at once and fails while it is read.
    const events = await fetchFn(`${peer.base}/events`);
    expect(events.headers.get('content-type')).toBe('text/event-stream');
    await expect(events.arrayBuffer()).rejects.toThrow(/larger than/);
    await expect(trusted.fetchFunction({ ...limits, timeoutMs: 150 })(`${peer.base}/slow`)).rejects.toThrow(
      /Timed out/,
    );
    const aborted = new AbortController();
    setTimeout(() => aborted.abort(), 50);
    await expect(fetchFn(`${peer.base}/slow`, { signal: aborted.signal })).rejects.toThrow();
    await expect(guarded.fetchFunction(limits)(`${peer.base}/json`)).rejects.toThrow(/not allowed/);
  });
});
