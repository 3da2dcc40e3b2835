import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { RoleType } from '../../../access/roles';

@Entity('roles')
export class Role {
  @PrimaryGeneratedColumn() id: number;
  @Column() name: string;
  @Column({ type: 'varchar' }) type: RoleType;
  @Column({ type: 'varchar', nullable: true }) description: string | null;
  /** `{resource}:{action}` strings. */
  @Column({ type: 'text', array: true, default: () => "'{}'" }) permissions: string[];
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
