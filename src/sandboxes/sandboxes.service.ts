import { Injectable } from '@nestjs/common';
import { can } from '../access/permissions';
import { Principal } from '../access/principal';
import { hasRank } from '../access/roles';
import { AppError } from '../common/errors/app-error';
import { ClientDatabases } from '../tenancy/client-databases';
import { ClientRegistry } from '../tenancy/client-registry';
import { sandboxSchemaName } from '../tenancy/sandbox-naming';
import { SandboxSchemas } from '../tenancy/sandbox-schemas';
import { tenantContext } from '../tenancy/tenant-context';
import { CreateSandboxDto, SandboxDto } from './dto/sandbox.dto';
import { SandboxesRepository } from './sandboxes.repository';
import { TenantDatabase } from '../tenancy/tenant-database';
import { Sandbox } from '../tenancy/entities/sandbox.entity';
import { Client } from '../tenancy/entities/client.entity';
import { ContentTypeSync } from '../cms';

const PRODUCTION: SandboxDto = {
  id: 'main',
  name: 'Production',
  description: 'Production data',
  slug: 'main',
  schemaName: 'public',
  isMain: true,
  createdAt: null,
};

@Injectable()
export class SandboxesService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly sandboxes: SandboxesRepository,
    private readonly registry: ClientRegistry,
    private readonly databases: ClientDatabases,
    private readonly schemas: SandboxSchemas,
    private readonly contentTypes: ContentTypeSync,
  ) {}

  /** Production plus the sandboxes the caller may enter. */
  async list(principal: Principal): Promise<SandboxDto[]> {
    const rows = hasRank(principal.role, 'ADMIN')
      ? await this.sandboxes.all()
      : await this.sandboxes.usableBy(principal.userId);
    return [PRODUCTION, ...rows.map(toView)];
  }

  async create(principal: Principal, dto: CreateSandboxDto): Promise<SandboxDto> {
    if (!can(principal, 'sandboxes:create')) throw AppError.forbidden();
    const { client: tenant } = tenantContext.get();
    const client = tenant.isMaster ? null : (this.registry.findByIdentifier(tenant.identifier) ?? null);
    const slug = dto.name
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 40);
    if (!slug) throw AppError.validation([{ field: 'name', message: 'name must contain a letter or digit' }]);
    const schemaName = sandboxSchemaName(slug);

    // One creation at a time per database: the count and the name check hold until the row is saved.
    return this.databases.withSandboxCreationLock(client, async () => {
      const count = await this.sandboxes.count();
      if (client?.maxSandboxes != null && count >= client.maxSandboxes) {
        throw AppError.conflict(`This client may have at most ${client.maxSandboxes} sandboxes`);
      }
      if (await this.sandboxes.taken(slug, schemaName))
        throw AppError.conflict(`A sandbox named "${slug}" exists`);
      return this.build(client, schemaName, slug, principal, dto);
    });
  }

  private async build(
    client: Client | null,
    schemaName: string,
    slug: string,
    principal: Principal,
    dto: CreateSandboxDto,
  ): Promise<SandboxDto> {
    const { client: tenant } = tenantContext.get();
    await this.databases.createSchema(client, schemaName);
    try {
      // Custom tables are created at runtime: the sandbox gets production's (rows come with copyData).
      await this.contentTypes.cloneIntoSandbox(client, schemaName, !!dto.copyData);
      if (dto.copyData) await this.databases.copyProduction(client, schemaName);
      const sandbox = await this.db.production((m) =>
        this.sandboxes.insert(m, {
          name: dto.name.trim(),
          slug,
          description: dto.description ?? null,
          schemaName,
          createdById: principal.userId,
        }),
      );
      await this.schemas.changed(tenant);
      return toView(sandbox);
    } catch (err) {
      await this.databases.dropSchema(client, schemaName).catch(() => undefined);
      throw err;
    }
  }
}

function toView(s: Sandbox): SandboxDto {
  return {
    id: String(s.id),
    name: s.name,
    description: s.description,
    slug: s.slug,
    schemaName: s.schemaName,
    isMain: false,
    createdAt: s.createdAt,
  };
}
