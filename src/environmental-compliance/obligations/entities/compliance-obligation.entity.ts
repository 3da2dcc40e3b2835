import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const OBLIGATION_TYPES = ['REPORTING', 'MONITORING', 'INSPECTION', 'TESTING', 'FILING'] as const;
export type ObligationType = (typeof OBLIGATION_TYPES)[number];
export const OBLIGATION_STATUSES = ['ACTIVE', 'COMPLETED', 'OVERDUE', 'WAIVED'] as const;
export type ObligationStatus = (typeof OBLIGATION_STATUSES)[number];
export const FREQUENCIES = [
  'DAILY',
  'WEEKLY',
  'MONTHLY',
  'QUARTERLY',
  'SEMI_ANNUAL',
  'ANNUAL',
  'ONE_TIME',
] as const;
export type Frequency = (typeof FREQUENCIES)[number];

const text = { type: 'text', nullable: true } as const;
const when = { type: 'timestamptz', nullable: true } as const;

/** Something a permit obliges its holder to do, once or at a frequency. */
@Entity('compliance_obligations')
export class ComplianceObligation {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'int' }) permitId: number;
  @Column({ type: 'varchar' }) title: string;
  @Column(text) description: string | null;
  @Column({ type: 'varchar' }) obligationType: ObligationType;
  @Column({ type: 'varchar', default: 'ACTIVE' }) status: ObligationStatus;
  @Column({ type: 'varchar' }) frequency: Frequency;
  @Column(when) nextDueDate: Date | null;
  @Column(when) lastCompletedDate: Date | null;
  @Column({ type: 'int', nullable: true }) responsibleUserId: number | null;
  @Column(text) requirements: string | null;
  @Column({ type: 'varchar', nullable: true }) submissionFormat: string | null;
  @Column(text) notes: string | null;
  @Column({ type: 'int', nullable: true }) companyId: number | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
