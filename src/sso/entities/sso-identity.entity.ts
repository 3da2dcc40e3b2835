import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A user's account at an identity provider, matched by (providerId, subject), never by e-mail. */
@Entity('sso_identities')
export class SsoIdentity {
  @PrimaryGeneratedColumn() id: number;
  @Column() providerId: number;
  @Column() userId: number;
  @Column() subject: string;
  @Column({ type: 'varchar', nullable: true }) email: string | null;
  /** SAML SessionIndex of the last login, for single logout. */
  @Column({ type: 'varchar', nullable: true }) sessionIndex: string | null;
  @Column({ type: 'timestamptz', default: () => 'now()' }) linkedAt: Date;
  @Column({ type: 'timestamptz', nullable: true }) lastLoginAt: Date | null;
}
