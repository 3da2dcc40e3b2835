import { Client } from 'pg';
import { databaseUrl } from './test-env';

/** Runs SQL directly against one database of the run (as the administrative user). */
export async function sql<T = Record<string, unknown>>(
  database: string,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new Client({ connectionString: databaseUrl(database) });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Name of a provisioned client's database (and login role) in a test deployment. */
export const clientDatabase = (masterDatabase: string, identifier: string) =>
  `${masterDatabase}_${identifier.replace(/-/g, '_')}`;
