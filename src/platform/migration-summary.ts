import { Injectable } from '@nestjs/common';
import { CLIENT_MIGRATIONS } from '../../migrations/client';
import { migrationsAfter } from '../database/migration-runner';
import { ClientRegistry } from '../tenancy/client-registry';
import { PlatformMigrationsRepository } from '../tenancy/platform-migrations.repository';
import { MIGRATABLE } from './clients.service';
import { MigratedVersions } from './migrated-versions';

/** A summary is reused this long: the answer is public, and it reads one Redis field per client. */
const REUSE_MS = 2000;

export interface ClientMigrationCounts {
  /** Recorded at this build's newest client migration (or a newer one). */
  current: number;
  /** Recorded at an older one, or none. */
  behind: number;
  /** Never recorded by a migration job or a start-up check. */
  unknown: number;
}

export interface MigrationsSummary {
  masterApplied: string | null;
  clients: ClientMigrationCounts;
}

/**
 * Where the deployment's databases stand: the master's newest applied master migration (one query)
 * and how many clients (active and suspended) are at this build's newest client migration, from
 * the versions migration jobs and start-up checks recorded (MigratedVersions): no client database
 * is asked.
 */
@Injectable()
export class MigrationSummary {
  private last?: { at: number; summary: Promise<MigrationsSummary> };

  constructor(
    private readonly registry: ClientRegistry,
    private readonly versions: MigratedVersions,
    private readonly platformMigrations: PlatformMigrationsRepository,
  ) {}

  summary(): Promise<MigrationsSummary> {
    if (this.last && Date.now() - this.last.at < REUSE_MS) return this.last.summary;
    const summary = this.read();
    this.last = { at: Date.now(), summary };
    summary.catch(() => (this.last = undefined));
    return summary;
  }

  private async read(): Promise<MigrationsSummary> {
    const identifiers = this.registry
      .all()
      .filter((client) => MIGRATABLE.includes(client.status))
      .map((client) => client.identifier);
    const [masterApplied, recorded] = await Promise.all([
      this.platformMigrations.newestApplied(),
      this.versions.of(identifiers),
    ]);
    const clients: ClientMigrationCounts = { current: 0, behind: 0, unknown: 0 };
    for (const identifier of identifiers) {
      if (!recorded.has(identifier)) clients.unknown++;
      else if (migrationsAfter(CLIENT_MIGRATIONS, recorded.get(identifier)!).length) clients.behind++;
      else clients.current++;
    }
    return { masterApplied, clients };
  }
}
