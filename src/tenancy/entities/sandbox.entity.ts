import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('sandboxes')
export class Sandbox {
  @PrimaryGeneratedColumn() id: number;
  @Column() name: string;
  @Column() slug: string;
  @Column({ type: 'varchar', nullable: true }) description: string | null;
  @Column() schemaName: string;
  @Column({ type: 'int', nullable: true }) createdById: number | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
