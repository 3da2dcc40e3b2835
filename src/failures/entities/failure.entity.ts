import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const FAILURE_STATUSES = ['OPEN', 'INVESTIGATING', 'RESOLVED'] as const;
export type FailureStatus = (typeof FAILURE_STATUSES)[number];
export const SEVERITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
export type Severity = (typeof SEVERITIES)[number];

@Entity('failures')
export class Failure {
  @PrimaryGeneratedColumn() id: number;
  @Column() title: string;
  @Column({ type: 'varchar', nullable: true }) description: string | null;
  @Column({ type: 'int' }) unitId: number;
  @Column({ type: 'int', nullable: true }) workOrderId: number | null;
  @Column({ type: 'varchar', default: 'MEDIUM' }) severity: Severity;
  @Column({ type: 'varchar', default: 'OPEN' }) status: FailureStatus;
  @Column({ type: 'timestamptz', nullable: true }) occurredAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) resolvedAt: Date | null;
  @Column({ type: 'int', nullable: true }) companyId: number | null;
  @Column({ type: 'int', nullable: true }) createdById: number | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
