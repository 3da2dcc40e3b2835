import { createServer, Server } from 'node:http';

const LIVENESS = '/management/health/liveness';

/**
 * What the port answers while the application starts (master migrations, module start-up):
 * liveness 200, everything else 503 STARTING with Retry-After, so an orchestrator never kills a
 * process that is still starting. `close` frees the port for the application.
 */
export async function openStartingProbes(port: number): Promise<{ close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === LIVENESS) {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    const error = { status: 503, code: 'STARTING', message: 'The service is starting; try again shortly' };
    res
      .writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '1', Connection: 'close' })
      .end(JSON.stringify({ error }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, resolve);
  });
  return { close: () => closeServer(server) };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
