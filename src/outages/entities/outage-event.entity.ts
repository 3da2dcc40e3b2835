import {
  Column,
  CreateDateColumn,
  DeleteDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { numericColumn } from '../../records/numeric';

export const OUTAGE_TYPES = ['PLANNED', 'FORCED', 'MAINTENANCE', 'EMERGENCY'] as const;
export type OutageType = (typeof OUTAGE_TYPES)[number];
export const OUTAGE_STATUSES = ['ACTIVE', 'COMPLETED', 'CANCELLED'] as const;
export type OutageStatus = (typeof OUTAGE_STATUSES)[number];
export const APPROVAL_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

const text = { type: 'text', nullable: true } as const;
const when = { type: 'timestamptz', nullable: true } as const;
const decimal = { type: 'numeric', nullable: true, transformer: numericColumn } as const;
const ref = { type: 'int', nullable: true } as const;

/** An outage of a generating unit; deleted softly (it leaves every read). */
@Entity('outage_events')
export class OutageEvent {
  @PrimaryGeneratedColumn() id: number;
  /** `OUT-` and the next value of the database's outage sequence (the column default). */
  @Column({
    type: 'varchar',
    update: false,
    default: () => "'OUT-' || lpad(nextval('outage_number_seq')::text, 6, '0')",
  })
  outageNumber: string;
  @Column({ type: 'varchar' }) title: string;
  @Column(text) description: string | null;
  @Column({ type: 'varchar' }) outageType: OutageType;
  @Column({ type: 'varchar', default: 'ACTIVE' }) status: OutageStatus;
  @Column(ref) unitId: number | null;
  @Column(ref) workOrderId: number | null;
  @Column(ref) failureId: number | null;
  @Column(when) plannedStart: Date | null;
  @Column(when) plannedEnd: Date | null;
  @Column(when) actualStart: Date | null;
  @Column(when) actualEnd: Date | null;
  @Column(decimal) capacityMw: number | null;
  @Column(decimal) lostCapacityMw: number | null;
  @Column(decimal) remainingCapacityMw: number | null;
  @Column(decimal) estimatedCost: number | null;
  @Column(decimal) actualCost: number | null;
  @Column(decimal) lostRevenue: number | null;
  @Column({ type: 'varchar', default: 'PENDING' }) approvalStatus: ApprovalStatus;
  @Column(ref) requestedById: number | null;
  @Column(ref) approvedById: number | null;
  @Column(when) approvalDate: Date | null;
  @Column(text) approvalNotes: string | null;
  @Column(text) rootCause: string | null;
  @Column(text) correctiveAction: string | null;
  @Column(text) completionNotes: string | null;
  @Column(ref) companyId: number | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
  @DeleteDateColumn({ type: 'timestamptz', select: false }) deletedAt?: Date | null;
}
