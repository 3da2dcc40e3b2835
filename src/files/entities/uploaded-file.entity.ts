import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A file uploaded for a company, stored once per content hash under its folder. */
@Entity('uploaded_files')
export class UploadedFile {
  @PrimaryGeneratedColumn() id: number;
  @Column() companyId: number;
  @Column() name: string;
  @Column() hash: string;
  @Column() ext: string;
  @Column() mime: string;
  @Column({ type: 'bigint', transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  size: number;
  @Column() provider: string;
  @Column() folderPath: string;
  @Column() storageKey: string;
  @Column({ type: 'varchar', nullable: true }) ref: string | null;
  @Column({
    type: 'bigint',
    nullable: true,
    transformer: { to: (v: number | null) => v, from: (v: string | null) => (v === null ? null : Number(v)) },
  })
  refId: number | null;
  @Column({ type: 'varchar', nullable: true }) field: string | null;
  @Column({ type: 'int', nullable: true }) createdById: number | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
