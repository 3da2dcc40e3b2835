import Redis from 'ioredis';
import { parseDatabaseUrl, withAdminConnection } from '../../src/database/data-source-factory';
import { removeRunBuild } from './compile-app';
import { removePreviousReleaseBuilds } from './previous-release';
import { ADMIN_URL, REDIS_URL, runPrefix } from './test-env';

/** Drops every database and role of this run, its Redis keys and its builds (the app's, the previous release's). */
export default async function globalTeardown() {
  const prefix = runPrefix();
  await withAdminConnection(parseDatabaseUrl(ADMIN_URL), async (pg) => {
    // Moves and restores name the databases they create `_<client database>_…`.
    const { rows: dbs } = await pg.query(
      'SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname LIKE $2',
      [`${prefix}%`, `\\_${prefix}%`],
    );
    for (const { datname } of dbs) {
      await pg.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
    const { rows: roles } = await pg.query('SELECT rolname FROM pg_roles WHERE rolname LIKE $1', [
      `${prefix}%`,
    ]);
    for (const { rolname } of roles) await pg.query(`DROP ROLE IF EXISTS "${rolname}"`);
  });
  await dropRunKeys();
  removeRunBuild();
  removePreviousReleaseBuilds();
}

/** Deletes this run's Redis keys (the Redis server is shared even when the PostgreSQL cluster is not). */
export async function dropRunKeys() {
  const prefix = runPrefix();
  const redis = new Redis(REDIS_URL);
  // The throttler storage wraps its keys in a {hash tag}, so they start with "{" + the prefix.
  for (const pattern of [`${prefix}*`, `{${prefix}*`]) {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  }
  await redis.quit();
}
