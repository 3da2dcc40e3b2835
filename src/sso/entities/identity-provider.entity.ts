import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const PROVIDER_TYPES = ['OIDC', 'OAUTH2', 'SAML'] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/** Keys of attributeMapping: each value names the IdP claim or attribute to read. */
export const MAPPED_ATTRIBUTES = ['email', 'firstName', 'lastName', 'displayName', 'phoneNumber'] as const;
export type MappedAttribute = (typeof MAPPED_ATTRIBUTES)[number];
export type AttributeMapping = Partial<Record<MappedAttribute, string>>;

@Entity('identity_providers')
export class IdentityProvider {
  @PrimaryGeneratedColumn() id: number;
  @Column() name: string;
  @Column() displayName: string;
  @Column({ type: 'varchar' }) providerType: ProviderType;
  @Column({ type: 'varchar', nullable: true }) presetProvider: string | null;
  @Column({ type: 'varchar', nullable: true }) clientId: string | null;
  /** Sealed with SecretBox; never returned. */
  @Column({ type: 'text', nullable: true }) clientSecret: string | null;
  @Column({ type: 'varchar', nullable: true }) discoveryUri: string | null;
  @Column({ type: 'varchar', nullable: true }) issuerUrl: string | null;
  @Column({ type: 'varchar', nullable: true }) authorizationUri: string | null;
  @Column({ type: 'varchar', nullable: true }) tokenUri: string | null;
  @Column({ type: 'varchar', nullable: true }) userInfoUri: string | null;
  @Column({ type: 'varchar', nullable: true }) scopes: string | null;
  @Column({ type: 'varchar', nullable: true }) entityId: string | null;
  @Column({ type: 'varchar', nullable: true }) ssoUrl: string | null;
  @Column({ type: 'varchar', nullable: true }) sloUrl: string | null;
  @Column({ type: 'text', nullable: true }) idpCertificate: string | null;
  @Column({ type: 'varchar', default: 'RSA_SHA256' }) signingAlgorithm: string;
  @Column({ type: 'varchar', nullable: true }) nameIdFormat: string | null;
  @Column({ default: true }) wantAssertionsSigned: boolean;
  @Column({ default: false }) wantAuthnRequestsSigned: boolean;
  @Column({ default: true }) enabled: boolean;
  @Column({ default: false }) jitEnabled: boolean;
  @Column({ type: 'int', nullable: true }) jitDefaultRoleId: number | null;
  @Column({ type: 'int', nullable: true }) jitDefaultProfileId: number | null;
  @Column({ default: false }) autoLinkByEmail: boolean;
  @Column({ type: 'varchar', nullable: true }) allowedDomains: string | null;
  @Column({ type: 'int', nullable: true }) companyId: number | null;
  @Column({ type: 'jsonb', default: () => "'{}'" }) attributeMapping: AttributeMapping;
  @Column({ type: 'timestamptz', nullable: true }) lastTestedAt: Date | null;
  @Column({ type: 'varchar', nullable: true }) lastTestStatus: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
