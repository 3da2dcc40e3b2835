import jwt from 'jsonwebtoken';
import { createServer } from 'node:http';
import { createSecretKey } from 'node:crypto';
import pg from 'pg';

/**
 * The baseline: node:http, jsonwebtoken and a pg pool. It verifies the same JWT and runs the same
 * paged query as GET /api/units, and nothing else.
 */
const key = createSecretKey(Buffer.from(process.env.JWT_SECRET!, 'utf8'));
const pool = new pg.Pool({ connectionString: process.env.BENCH_CLIENT_DB_URL, max: 5 });
const SQL = `SELECT id, name, code, type, capacity_mw, location, status, company_id, created_by_id, created_at, updated_at,
                    count(*) OVER () AS total
               FROM units ORDER BY id LIMIT 25 OFFSET 0`;

const server = createServer((req, res) => {
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  let claims: jwt.JwtPayload;
  try {
    claims = jwt.verify(token ?? '', key, { algorithms: ['HS256'] }) as jwt.JwtPayload;
  } catch {
    res.writeHead(401).end();
    return;
  }
  if (!claims.sub) {
    res.writeHead(401).end();
    return;
  }
  pool.query(SQL).then(
    ({ rows }) => {
      const total = rows.length ? Number(rows[0].total) : 0;
      const data = rows.map((r) => ({
        id: r.id,
        name: r.name,
        code: r.code,
        type: r.type,
        capacityMw: r.capacity_mw === null ? null : Number(r.capacity_mw),
        location: r.location,
        status: r.status,
        companyId: r.company_id,
        createdById: r.created_by_id,
        createdAt: r.created_at,
        updatedAt: r.updated_at,
      }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          data,
          meta: { pagination: { page: 1, pageSize: 25, pageCount: Math.ceil(total / 25), total } },
        }),
      );
    },
    () => res.writeHead(500).end(),
  );
});

server.listen(0, '127.0.0.1', () => {
  process.send?.({ type: 'ready', port: (server.address() as { port: number }).port });
});
process.on('message', (message: { type: string }) => {
  if (message.type === 'stop') server.close(() => void pool.end().then(() => process.exit(0)));
});
