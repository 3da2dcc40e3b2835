import { Injectable } from '@nestjs/common';
import { AuditWriter, diffChanges } from '../../audit-trail/audit-writer';
import { AppError } from '../../common/errors/app-error';
import { TenantDatabase } from '../../tenancy/tenant-database';
import { CompaniesRepository } from './companies.repository';
import { CompanyDto, CompanyInputDto } from './dto/company.dto';
import { Company } from './entities/company.entity';
import { UsersRepository } from './users.repository';

const toView = (c: Company): CompanyDto => ({
  id: c.id,
  name: c.name,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

/** Companies (organisational units) of the current client. */
@Injectable()
export class CompaniesService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly audit: AuditWriter,
    private readonly companies: CompaniesRepository,
    private readonly users: UsersRepository,
  ) {}

  async list() {
    const rows = await this.db.production((m) => this.companies.list(m));
    return { data: rows.map(toView) };
  }

  async get(id: number) {
    const company = await this.db.production((m) => this.companies.findById(m, id));
    if (!company) throw AppError.notFound('Company');
    return { data: toView(company) };
  }

  async create(dto: CompanyInputDto) {
    const company = await this.db.production((m) =>
      m.transaction(async (tx) => {
        const saved = await this.companies.save(tx, { name: dto.name.trim() });
        await this.audit.record(tx, {
          action: 'CREATE',
          entityType: 'Company',
          entityId: saved.id,
          message: `Company "${saved.name}" created`,
          changes: diffChanges(null, { name: saved.name }),
        });
        return saved;
      }),
    );
    return { data: toView(company) };
  }

  async update(id: number, dto: CompanyInputDto) {
    const company = await this.db.production((m) =>
      m.transaction(async (tx) => {
        const before = await this.companies.lockById(tx, id);
        if (!before) throw AppError.notFound('Company');
        const after = await this.companies.save(tx, { ...before, name: dto.name.trim() });
        const changes = diffChanges({ name: before.name }, { name: after.name });
        if (Object.keys(changes).length) {
          await this.audit.record(tx, {
            action: 'UPDATE',
            entityType: 'Company',
            entityId: id,
            message: `Company "${after.name}" updated`,
            changes,
          });
        }
        return after;
      }),
    );
    return { data: toView(company) };
  }

  /** Refused (409) while users, units or tokens still belong to the company. */
  async remove(id: number): Promise<void> {
    await this.db.production((m) =>
      m.transaction(async (tx) => {
        const company = await this.companies.lockById(tx, id);
        if (!company) throw AppError.notFound('Company');
        if (await this.users.anyInCompany(tx, id)) {
          throw AppError.conflict('The company still has users; move or delete them first');
        }
        await this.companies.delete(tx, id);
        await this.audit.record(tx, {
          action: 'DELETE',
          entityType: 'Company',
          entityId: id,
          message: `Company "${company.name}" deleted`,
          changes: diffChanges({ name: company.name }, null),
        });
      }),
    );
  }
}
