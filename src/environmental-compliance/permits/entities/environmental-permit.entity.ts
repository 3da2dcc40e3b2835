import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { numericColumn } from '../../../records/numeric';

export const PERMIT_TYPES = ['AIR', 'WATER', 'WASTE', 'NOISE', 'LAND_USE', 'ENVIRONMENTAL_IMPACT'] as const;
export type PermitType = (typeof PERMIT_TYPES)[number];
export const PERMIT_STATUSES = ['ACTIVE', 'EXPIRED', 'SUSPENDED', 'REVOKED', 'PENDING_RENEWAL'] as const;
export type PermitStatus = (typeof PERMIT_STATUSES)[number];

const text = { type: 'text', nullable: true } as const;
const short = { type: 'varchar', nullable: true } as const;
const when = { type: 'timestamptz', nullable: true } as const;
const money = { type: 'numeric', nullable: true, transformer: numericColumn } as const;

/** An environmental permit held by a company (optionally for one unit). */
@Entity('environmental_permits')
export class EnvironmentalPermit {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'varchar' }) permitNumber: string;
  @Column({ type: 'varchar' }) title: string;
  @Column(text) description: string | null;
  @Column({ type: 'varchar' }) permitType: PermitType;
  @Column({ type: 'varchar', default: 'ACTIVE' }) status: PermitStatus;
  @Column(short) issuingAuthority: string | null;
  @Column(short) authorityContact: string | null;
  @Column(short) authorityEmail: string | null;
  @Column(short) authorityPhone: string | null;
  @Column(when) issueDate: Date | null;
  @Column(when) expiryDate: Date | null;
  @Column(when) renewalDate: Date | null;
  @Column({ type: 'int', nullable: true }) unitId: number | null;
  @Column(text) conditions: string | null;
  @Column(text) restrictions: string | null;
  @Column(text) emissionLimits: string | null;
  @Column(money) permitFee: number | null;
  @Column(money) annualFee: number | null;
  @Column(text) notes: string | null;
  /** The last expiry notice sent (90, 30 or 7 days before); bookkeeping of the daily job, never shown. */
  @Column({ type: 'int', nullable: true, select: false }) expiryNoticeDays?: number | null;
  @Column({ type: 'int', nullable: true }) companyId: number | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
