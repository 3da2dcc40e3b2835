import {
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { Role } from './role.entity';

@Entity('users')
export class User {
  @PrimaryGeneratedColumn() id: number;
  @Column() email: string;
  @Column({ type: 'varchar', nullable: true }) username: string | null;
  @Column({ type: 'varchar', nullable: true }) phoneNumber: string | null;
  /** Profile a user starts with (set by SSO JIT provisioning from jitDefaultProfileId). */
  @Column({ type: 'int', nullable: true }) profileId: number | null;
  @Column({ type: 'varchar', nullable: true }) firstName: string | null;
  @Column({ type: 'varchar', nullable: true }) lastName: string | null;
  @Column({ type: 'varchar', nullable: true, select: false }) passwordHash: string | null;
  @Column() roleId: number;
  @ManyToOne(() => Role) @JoinColumn({ name: 'role_id' }) role?: Role;
  @Column({ type: 'int', nullable: true }) companyId: number | null;
  @Column({ default: false }) blocked: boolean;
  @Column({ default: true }) confirmed: boolean;
  @Column({ type: 'timestamptz', nullable: true }) deletedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) passwordChangedAt: Date | null;
  /** Bumped by a password change or reset; access tokens carry it as `tv` and die with it. */
  @Column({ default: 0 }) tokenVersion: number;
  @Column({ default: 0 }) failedLoginCount: number;
  @Column({ type: 'timestamptz', nullable: true }) lockedUntil: Date | null;
  @Column({ type: 'varchar', nullable: true, select: false }) resetTokenHash: string | null;
  @Column({ type: 'timestamptz', nullable: true }) resetTokenExpiresAt: Date | null;
  @Column({ default: false }) twoFactorEnabled: boolean;
  /** SecretBox-sealed base32 TOTP secret. */
  @Column({ type: 'text', nullable: true, select: false }) twoFactorSecret: string | null;
  /** Secret of an enrolment started by /auth/2fa/enable and not yet verified. */
  @Column({ type: 'text', nullable: true, select: false }) twoFactorPendingSecret: string | null;
  /** SHA-256 of each unused recovery code. */
  @Column({ type: 'text', array: true, default: () => "'{}'", select: false })
  twoFactorRecoveryHashes: string[];
  @Column({ type: 'text', array: true, default: () => "'{}'", select: false })
  twoFactorPendingRecoveryHashes: string[];
  /** Last accepted TOTP time step: a code of that step or an earlier one is refused. */
  @Column({ type: 'bigint', nullable: true, select: false }) twoFactorLastStep: string | null;
  @Column({ type: 'varchar', nullable: true, select: false }) confirmationTokenHash: string | null;
  @Column({ type: 'timestamptz', nullable: true, select: false }) confirmationExpiresAt: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
