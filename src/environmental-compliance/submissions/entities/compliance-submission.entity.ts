import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const SUBMISSION_STATUSES = [
  'DRAFT',
  'SUBMITTED',
  'UNDER_REVIEW',
  'APPROVED',
  'REJECTED',
  'REVISION_REQUIRED',
] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

const text = { type: 'text', nullable: true } as const;
const when = { type: 'timestamptz', nullable: true } as const;
const ref = { type: 'int', nullable: true } as const;

/** What was handed to the regulator for an obligation, and its review. */
@Entity('compliance_submissions')
export class ComplianceSubmission {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'int' }) obligationId: number;
  @Column({ type: 'varchar', nullable: true }) submissionReference: string | null;
  @Column({ type: 'varchar' }) title: string;
  @Column(text) description: string | null;
  @Column({ type: 'varchar', default: 'DRAFT' }) status: SubmissionStatus;
  @Column(when) periodStart: Date | null;
  @Column(when) periodEnd: Date | null;
  @Column(when) submittedDate: Date | null;
  @Column(when) reviewDate: Date | null;
  @Column(when) approvalDate: Date | null;
  @Column(ref) submittedById: number | null;
  @Column(ref) reviewedById: number | null;
  @Column(text) submissionData: string | null;
  @Column(text) reviewNotes: string | null;
  @Column(text) rejectionReason: string | null;
  @Column(text) notes: string | null;
  @Column(ref) companyId: number | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
