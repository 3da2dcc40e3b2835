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
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
