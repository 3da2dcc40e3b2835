import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const SERVER_STATES = ['active', 'draining', 'disabled'] as const;
export type ServerState = (typeof SERVER_STATES)[number];

/**
 * A PostgreSQL server client databases are placed on (master database only). Host, port, the
 * pooler's address and the administrative login never leave the service; a null login means the
 * master's own (DATABASE_URL). With a pooler (both set or neither), its clients' application pools
 * connect to it; administrative work always goes to host and port.
 */
@Entity('database_servers')
export class DatabaseServer {
  @PrimaryGeneratedColumn() id: number;
  @Column() name: string;
  @Column() host: string;
  @Column() port: number;
  @Column({ type: 'varchar', nullable: true }) poolerHost: string | null;
  @Column({ type: 'int', nullable: true }) poolerPort: number | null;
  @Column({ type: 'varchar', nullable: true }) adminUsername: string | null;
  /** AES-256-GCM sealed; see SecretBox. */
  @Column({ type: 'varchar', nullable: true }) adminPassword: string | null;
  /** The cluster's system identifier and port (see ServerIdentity); null until first read. */
  @Column({ type: 'varchar', nullable: true }) systemIdentifier: string | null;
  @Column({ type: 'int', nullable: true }) clusterPort: number | null;
  /** Whether it runs with wal_level = logical (can take part in an online move); null until first read. */
  @Column({ type: 'boolean', nullable: true }) logicalReplication: boolean | null;
  @Column({ type: 'int' }) maxClients: number;
  @Column({ type: 'int' }) maxConnections: number;
  @Column({ type: 'varchar' }) state: ServerState;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
