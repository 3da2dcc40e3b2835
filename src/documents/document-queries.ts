import { EntityManager } from 'typeorm';
import { FileRecords } from '../files';
import { DocumentRow } from './document-view';
import { DocumentFilter, DocumentsRepository } from './documents.repository';

/** Sortable fields of document lists (JSON name → column; the file's name is the files'). */
export const SORTS: Record<string, string | ((files: FileRecords) => string)> = {
  id: 'd.id',
  createdAt: 'd.created_at',
  processedAt: 'd.processed_at',
  status: 'd.status',
  fileName: (files) => files.nameOf('d.file_id'),
  textLength: 'd.text_length',
  wordCount: 'd.word_count',
  ocrConfidence: 'd.ocr_confidence',
};

/** The file fields of a document row. */
type FileFields = Pick<DocumentRow, 'fileName' | 'mimeType' | 'fileSizeBytes' | 'fileExt'>;

/** Each row with its file's name, type, size and extension; a row whose file is gone is left out. */
export async function withFiles<T extends { fileId: number }>(
  m: EntityManager,
  files: FileRecords,
  rows: T[],
): Promise<(T & FileFields)[]> {
  const byId = await files.byId(
    m,
    rows.map((r) => r.fileId),
  );
  return rows.flatMap((row) => {
    const file = byId.get(Number(row.fileId));
    if (!file) return [];
    return [
      { ...row, fileName: file.name, mimeType: file.mime, fileSizeBytes: file.size, fileExt: file.ext },
    ];
  });
}

export interface SpringPage<T> {
  content: T[];
  totalElements: number;
  totalPages: number;
  number: number;
  size: number;
}

export const springPage = <T>(content: T[], total: number, page: number, size: number): SpringPage<T> => ({
  content,
  totalElements: total,
  totalPages: Math.ceil(total / size),
  number: page,
  size,
});

/** One page of documents with a 500-character preview of their text (never the whole text). */
export async function listDocuments(
  m: EntityManager,
  files: FileRecords,
  documents: DocumentsRepository,
  filter: DocumentFilter,
  page: { page: number; size: number; sort?: string },
): Promise<{ rows: DocumentRow[]; total: number }> {
  const [field, direction] = (page.sort ?? 'createdAt,desc').split(',');
  const sort = SORTS[field] ?? 'd.created_at';
  const column = typeof sort === 'string' ? sort : sort(files);
  const dir = direction?.toLowerCase() === 'asc' ? 'ASC' : 'DESC';
  const found = await documents.page(m, filter, column, dir, page.size, page.page * page.size);
  const rows = await withFiles(m, files, found);
  let total = rows.length ? Number(rows[0].total) : 0;
  if (!rows.length && page.page > 0) total = await documents.count(m, filter);
  return { rows, total };
}

/** One document (optionally with its full text), or null. */
export async function findDocument(
  m: EntityManager,
  files: FileRecords,
  documents: DocumentsRepository,
  filter: DocumentFilter,
  fullText = false,
): Promise<DocumentRow | null> {
  const found = await documents.findOne(m, filter, fullText);
  const [row] = await withFiles(m, files, found ? [found] : []);
  return row ?? null;
}
