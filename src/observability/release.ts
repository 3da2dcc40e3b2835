import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_MIGRATIONS } from '../../migrations/client';
import { MASTER_MIGRATIONS } from '../../migrations/master';
import { version } from '../../package.json';
import { migrationName } from '../database/migration-runner';

/** What this build is: its release, its commit when the image build recorded one, its newest migrations. */
export interface Release {
  version: string;
  commit?: string;
  masterMigration: string;
  clientMigration: string;
}

/** The commit `npm run image` writes beside the build (dist/COMMIT); absent outside an image. */
function builtCommit(): string | undefined {
  try {
    const commit = readFileSync(join(__dirname, '..', '..', 'COMMIT'), 'utf8').trim();
    return /^[0-9a-f]{7,40}$/.test(commit) ? commit : undefined;
  } catch {
    return undefined;
  }
}

const COMMIT = builtCommit();

export const RELEASE: Release = {
  version,
  ...(COMMIT ? { commit: COMMIT } : {}),
  masterMigration: migrationName(MASTER_MIGRATIONS[MASTER_MIGRATIONS.length - 1]),
  clientMigration: migrationName(CLIENT_MIGRATIONS[CLIENT_MIGRATIONS.length - 1]),
};
