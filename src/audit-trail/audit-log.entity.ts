import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const AUDIT_ACTIONS = ['CREATE', 'UPDATE', 'DELETE', 'LOGIN', 'LOGOUT', 'ACCESS', 'EXPORT'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

@Entity('audit_logs')
export class AuditLog {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id: string;
  @Column({ type: 'varchar' }) action: AuditAction;
  @Column({ type: 'varchar', nullable: true }) entityType: string | null;
  @Column({ type: 'bigint', nullable: true }) entityId: string | null;
  @Column({ type: 'int', nullable: true }) userId: number | null;
  @Column({ type: 'varchar', nullable: true }) username: string | null;
  @Column({ type: 'timestamptz', default: () => 'now()' }) timestamp: Date;
  @Column({ type: 'varchar', nullable: true }) ipAddress: string | null;
  @Column({ type: 'varchar', nullable: true }) userAgent: string | null;
  @Column({ type: 'text', nullable: true }) message: string | null;
  @Column({ type: 'jsonb', nullable: true }) changes: Record<string, { old: unknown; new: unknown }> | null;
  @Column({ type: 'jsonb', nullable: true }) metadata: Record<string, unknown> | null;
}
