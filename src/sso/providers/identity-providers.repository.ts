import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlExample } from '../../database/sql-example';
import { IdentityProvider } from '../entities/identity-provider.entity';

const EXAMPLE_PROVIDER: Partial<IdentityProvider> = {
  name: 'corporate-oidc',
  displayName: 'Corporate sign-in',
  providerType: 'OIDC',
  clientId: 'example-client',
  issuerUrl: 'https://idp.example.com',
  scopes: 'openid email profile',
  attributeMapping: {},
};

/** Identity providers of a client (identity_providers). */
@Injectable()
export class IdentityProvidersRepository {
  @SqlExample((c) => [c.manager])
  list(m: EntityManager): Promise<IdentityProvider[]> {
    return m.getRepository(IdentityProvider).find({ order: { id: 'ASC' } });
  }

  @SqlExample((c) => [c.manager])
  listEnabled(m: EntityManager): Promise<IdentityProvider[]> {
    return m.getRepository(IdentityProvider).find({ where: { enabled: true }, order: { id: 'ASC' } });
  }

  @SqlExample((c) => [c.manager, 1])
  findById(m: EntityManager, id: number): Promise<IdentityProvider | null> {
    return m.getRepository(IdentityProvider).findOneBy({ id });
  }

  /** By id when `key` is a number, else by name (any case). */
  @SqlExample((c) => [c.manager, '1'])
  @SqlExample((c) => [c.manager, 'corporate-oidc'])
  findByNameOrId(m: EntityManager, key: string): Promise<IdentityProvider | null> {
    return m
      .getRepository(IdentityProvider)
      .createQueryBuilder('p')
      .where(/^\d{1,9}$/.test(key) ? 'p.id = :id' : 'lower(p.name) = lower(:key)', { id: Number(key), key })
      .getOne();
  }

  /** The enabled SAML provider of an IdP entity ID. */
  @SqlExample((c) => [c.manager, 'https://idp.example.com/saml'])
  findSamlByEntityId(m: EntityManager, entityId: string): Promise<IdentityProvider | null> {
    return m.getRepository(IdentityProvider).findOneBy({ entityId, providerType: 'SAML', enabled: true });
  }

  /** The provider, its row locked until the transaction ends. */
  @SqlExample((c) => [c.manager, 1])
  lockById(tx: EntityManager, id: number): Promise<IdentityProvider | null> {
    return tx
      .getRepository(IdentityProvider)
      .createQueryBuilder('p')
      .setLock('pessimistic_write')
      .where('p.id = :id', { id })
      .getOne();
  }

  /** True when a provider has this name (any case). */
  @SqlExample((c) => [c.manager, 'corporate-oidc'])
  async nameTaken(m: EntityManager, name: string): Promise<boolean> {
    const [taken] = await m.query('SELECT id FROM identity_providers WHERE lower(name) = lower($1)', [name]);
    return Boolean(taken);
  }

  @SqlExample((c) => [c.manager, EXAMPLE_PROVIDER])
  insert(tx: EntityManager, draft: Partial<IdentityProvider>): Promise<IdentityProvider> {
    return tx.getRepository(IdentityProvider).save(tx.create(IdentityProvider, draft));
  }

  @SqlExample((c) => [c.manager, { ...EXAMPLE_PROVIDER, id: 1 }])
  save(tx: EntityManager, provider: IdentityProvider): Promise<IdentityProvider> {
    return tx.getRepository(IdentityProvider).save(provider);
  }

  @SqlExample((c) => [c.manager, 1])
  async delete(tx: EntityManager, id: number): Promise<void> {
    await tx.getRepository(IdentityProvider).delete({ id });
  }

  /** The outcome of the last connection test. */
  @SqlExample((c) => [c.manager, 1, new Date('2026-01-01T00:00:00Z'), 'SUCCESS'])
  async recordTest(m: EntityManager, id: number, testedAt: Date, status: string): Promise<void> {
    await m.query('UPDATE identity_providers SET last_tested_at = $1, last_test_status = $2 WHERE id = $3', [
      testedAt,
      status,
      id,
    ]);
  }
}
