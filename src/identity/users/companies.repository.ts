import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlExample } from '../../database/sql-example';
import { Company } from './entities/company.entity';

/** Companies of a client. Every method runs on the manager it is given (the seeder has no app). */
@Injectable()
export class CompaniesRepository {
  @SqlExample((c) => [c.manager])
  list(m: EntityManager): Promise<Company[]> {
    return m.getRepository(Company).find({ order: { id: 'ASC' } });
  }

  @SqlExample((c) => [c.manager, 1])
  findById(m: EntityManager, id: number): Promise<Company | null> {
    return m.getRepository(Company).findOneBy({ id });
  }

  /** The company, its row locked until the transaction ends. */
  @SqlExample((c) => [c.manager, 1])
  lockById(tx: EntityManager, id: number): Promise<Company | null> {
    return tx.getRepository(Company).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  @SqlExample((c) => [c.manager, 1])
  async exists(m: EntityManager, id: number): Promise<boolean> {
    const [row] = await m.query('SELECT 1 FROM public.companies WHERE id = $1', [id]);
    return Boolean(row);
  }

  /** The first company (the default one of registrations and the seeder). */
  @SqlExample((c) => [c.manager])
  async firstId(m: EntityManager): Promise<number | null> {
    const [row] = await m.query('SELECT id FROM public.companies ORDER BY id LIMIT 1');
    return row?.id ?? null;
  }

  /** A new company; answers its id. */
  @SqlExample((c) => [c.manager, 'Main company'])
  async insertNamed(m: EntityManager, name: string): Promise<number> {
    const [created] = await m.query('INSERT INTO public.companies (name) VALUES ($1) RETURNING id', [name]);
    return created.id;
  }

  @SqlExample((c) => [c.manager, { name: 'North plant' }])
  save(tx: EntityManager, company: Partial<Company>): Promise<Company> {
    return tx.getRepository(Company).save(company);
  }

  @SqlExample((c) => [c.manager, 999])
  async delete(tx: EntityManager, id: number): Promise<void> {
    await tx.getRepository(Company).delete({ id });
  }
}
