import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** Entity type used for the tenant-wide default policy row. */
export const DEFAULT_POLICY_KEY = '*';

/** How long audit entries of one entity type are kept (a row `*` overrides the default setting). */
@Entity('audit_retention_policies')
export class AuditRetentionPolicy {
  @PrimaryColumn({ type: 'varchar' }) entityType: string;
  @Column({ type: 'int' }) retentionDays: number;
  @Column({ type: 'int', nullable: true }) updatedById: number | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
