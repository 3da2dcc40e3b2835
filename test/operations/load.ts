import http from 'node:http';

export interface Outcome {
  startedAt: number;
  endedAt: number;
  status?: number;
  error?: string;
}

function once(agent: http.Agent, port: number, path: string, token: string): Promise<Outcome> {
  const startedAt = Date.now();
  return new Promise((resolve) => {
    const req = http.get(
      { host: '127.0.0.1', port, path, agent, headers: { Authorization: `Bearer ${token}` } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ startedAt, endedAt: Date.now(), status: res.statusCode }));
        res.on('error', (err) => resolve({ startedAt, endedAt: Date.now(), error: err.message }));
      },
    );
    req.on('error', (err) => resolve({ startedAt, endedAt: Date.now(), error: err.message }));
  });
}

/**
 * `connections` keep-alive clients each sending GETs one after the other until `until()` is true or
 * the server refuses them; every request's start, end and outcome is recorded.
 */
export async function hammer(
  port: number,
  path: string,
  token: string,
  connections: number,
  until: () => boolean,
): Promise<Outcome[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const outcomes: Outcome[] = [];
  const deadline = Date.now() + 30_000; // bounded whatever happens
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (!until() && Date.now() < deadline) {
        const outcome = await once(agent, port, path, token);
        outcomes.push(outcome);
        if (outcome.error) break; // the listener is closed: this client is done
      }
    }),
  );
  agent.destroy();
  return outcomes;
}
