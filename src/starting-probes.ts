import { createServer, IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';

const LIVENESS = '/management/health/liveness';

/** The process's one listening socket, answering for the start-up until the application takes it. */
export interface StartingServer {
  server: Server;
  /** From now on every request, on new and already open connections, goes to `application`. */
  handOver: (application: RequestListener) => void;
}

/**
 * Listens on `port` once, for the life of the process: while the application starts (modules
 * loading, master migrations, module start-up) liveness answers 200 and everything else 503
 * STARTING with Retry-After, so an orchestrator never kills a process that is still starting and
 * never finds the port closed; then the application answers on the same socket.
 */
export async function openStartingServer(port: number): Promise<StartingServer> {
  let current: RequestListener = answerStarting;
  const server = createServer((req, res) => current(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, handOver: (application) => (current = application) };
}

function answerStarting(req: IncomingMessage, res: ServerResponse) {
  const path = (req.url ?? '').split('?')[0];
  if (req.method === 'GET' && path === LIVENESS) {
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  const error = { status: 503, code: 'STARTING', message: 'The service is starting; try again shortly' };
  res
    .writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '1', Connection: 'close' })
    .end(JSON.stringify({ error }));
}
