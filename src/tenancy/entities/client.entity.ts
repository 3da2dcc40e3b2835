import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const CLIENT_STATUSES = ['PENDING', 'PROVISIONING', 'ACTIVE', 'SUSPENDED', 'DELETED'] as const;
export type ClientStatus = (typeof CLIENT_STATUSES)[number];

/** Platform registry row, master database only. Connection details never leave the service. */
@Entity('clients')
export class Client {
  @PrimaryGeneratedColumn() id: number;
  @Column() identifier: string;
  @Column() companyName: string;
  @Column({ type: 'varchar', nullable: true }) subdomain: string | null;
  @Column({ type: 'varchar', nullable: true }) customDomain: string | null;
  @Column({ type: 'varchar', nullable: true }) contactEmail: string | null;
  /** The database server holding the client's database; databaseHost and databasePort are its own. */
  @Column({ type: 'int', nullable: true }) serverId: number | null;
  /** Set while the database is copied to that server: writes are refused, reads go on. */
  @Column({ type: 'int', nullable: true }) movingToServerId: number | null;
  /** Set while the database is restored in place from a backup: every request is refused. */
  @Column({ type: 'timestamptz', nullable: true }) restoringSince: Date | null;
  @Column() databaseHost: string;
  @Column() databasePort: number;
  @Column() databaseName: string;
  @Column() databaseUsername: string;
  /** AES-256-GCM sealed; see SecretBox. */
  @Column({ type: 'varchar', nullable: true }) databasePassword: string | null;
  @Column({ type: 'varchar' }) status: ClientStatus;
  @Column({ type: 'int', nullable: true }) maxUsers: number | null;
  @Column({ type: 'int', nullable: true }) maxSandboxes: number | null;
  @Column({ type: 'timestamptz', nullable: true }) provisionedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) lastAccessAt: Date | null;
  @Column({ type: 'text', nullable: true }) lastError: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
