import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export interface ResourcePermission {
  resourceName: string;
  canCreate: boolean;
  canRead: boolean;
  canUpdate: boolean;
  canDelete: boolean;
  /** Absent on tokens made before the flag existed. */
  canPublish?: boolean;
}

@Entity('api_tokens')
export class ApiToken {
  @PrimaryGeneratedColumn() id: number;
  @Column() name: string;
  @Column({ type: 'varchar', nullable: true }) description: string | null;
  /** SHA-256 of the value; the value is shown once at creation and never stored. */
  @Column({ select: false }) tokenHash: string;
  /** The first characters of the value, to recognise a token in lists. */
  @Column() tokenPreview: string;
  @Column() createdById: number;
  @Column({ type: 'int', nullable: true }) companyId: number | null;
  @Column({ default: false }) isFullAccess: boolean;
  @Column({ type: 'jsonb', default: () => "'[]'" }) permissions: ResourcePermission[];
  @Column({ type: 'timestamptz', nullable: true }) expiresAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) revokedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) lastUsedAt: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
