import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const DOCUMENT_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'SKIPPED'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];
/** Stored lower-case, answered upper-case. */
export type StoredStatus = Lowercase<DocumentStatus>;

const decimal = {
  to: (v: number | null) => v,
  from: (v: string | null) => (v === null ? null : Number(v)),
};

/** The text extracted from one uploaded file and its processing state (the document analysis record). */
@Entity('document_contents')
export class DocumentContent {
  @PrimaryGeneratedColumn() id: number;
  @Column() companyId: number;
  @Column() fileId: number;
  @Column({ type: 'varchar', default: 'pending' }) status: StoredStatus;
  @Column({ type: 'varchar', nullable: true }) errorMessage: string | null;
  @Column({ type: 'text', nullable: true, select: false }) extractedText: string | null;
  @Column({ type: 'int', default: 0 }) textLength: number;
  @Column({ type: 'int', default: 0 }) wordCount: number;
  @Column({ type: 'int', default: 1 }) pageCount: number;
  @Column({ type: 'int', default: 0 }) pagesProcessed: number;
  @Column({ type: 'numeric', precision: 5, scale: 4, nullable: true, transformer: decimal })
  ocrConfidence: number | null;
  @Column({ type: 'varchar', nullable: true }) ocrLanguage: string | null;
  @Column({ type: 'int', nullable: true }) processingDurationMs: number | null;
  @Column({ type: 'timestamptz', nullable: true }) processingStartedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) processedAt: Date | null;
  @Column({ default: false }) indexedForSearch: boolean;
  @Column({ default: 'UPLOAD' }) fileType: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
