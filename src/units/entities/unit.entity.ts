import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const UNIT_STATUSES = ['OPERATIONAL', 'MAINTENANCE', 'OUTAGE', 'DECOMMISSIONED'] as const;
export type UnitStatus = (typeof UNIT_STATUSES)[number];

const numeric = { to: (v: number | null) => v, from: (v: string | null) => (v === null ? null : Number(v)) };

@Entity('units')
export class Unit {
  @PrimaryGeneratedColumn() id: number;
  @Column() name: string;
  @Column({ type: 'varchar', nullable: true }) code: string | null;
  @Column({ type: 'varchar', nullable: true }) type: string | null;
  @Column({ type: 'numeric', nullable: true, transformer: numeric }) capacityMw: number | null;
  @Column({ type: 'varchar', nullable: true }) location: string | null;
  @Column({ type: 'varchar', default: 'OPERATIONAL' }) status: UnitStatus;
  @Column({ type: 'int', nullable: true }) companyId: number | null;
  @Column({ type: 'int', nullable: true }) createdById: number | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
