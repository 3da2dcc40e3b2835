import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainEvents } from '../events/domain-events';
import { FileUploadHooks, UploadedFile } from '../files';
import { PRODUCTION_SCHEMA, tenantContext } from '../tenancy/tenant-context';
import { DocumentRow, documentView } from './document-view';
import { DocumentsRepository } from './documents.repository';
import { StoredStatus } from './entities/document-content.entity';
import { OcrCompanyConfig, OcrConfigStore } from './ocr-config.store';
import { OcrQueue } from './ocr-queue';

export const DISABLED_MESSAGE = 'OCR is disabled for this organization. Enable it in settings first.';
export const unsupportedMessage = (name: string) => `File type not supported for OCR: ${name}`;
export const MANUAL_MESSAGE = 'Automatic processing is off; analyze the file to extract its text';

/** Extensions the company's list names, `jpg` and `jpeg` (and `tif`/`tiff`) standing for each other. */
export function readsType(types: string[], ext: string): boolean {
  const bare = ext.replace(/^\./, '').toLowerCase();
  const aliases: Record<string, string[]> = { jpg: ['jpeg'], jpeg: ['jpg'], tiff: ['tif'], tif: ['tiff'] };
  return [bare, ...(aliases[bare] ?? [])].some((t) => types.includes(t));
}

/**
 * Gives each uploaded file its document record (an upload hook): PENDING when OCR is on for the
 * company (globally and for it), automatic processing is on and the type is one it reads; SKIPPED
 * with the reason otherwise. The company's OCR settings are read before the files are stored. Each
 * record sends `document.created` in the upload's transaction; the OCR dispatcher queues PENDING ones
 * from the outbox. Sandboxes have no outbox: their jobs are queued after commit.
 */
@Injectable()
export class DocumentIntake implements OnModuleInit {
  constructor(
    private readonly configs: OcrConfigStore,
    private readonly events: DomainEvents,
    private readonly queue: OcrQueue,
    private readonly uploads: FileUploadHooks,
    private readonly documents: DocumentsRepository,
  ) {}

  onModuleInit() {
    this.uploads.register<OcrCompanyConfig>({
      prepare: (companyId) => this.configs.get(companyId),
      uploaded: (m, upload, config) => this.created(m, config, upload.files),
    });
  }

  private initial(
    config: OcrCompanyConfig,
    file: UploadedFile,
  ): { status: StoredStatus; error: string | null } {
    if (!this.configs.enabledFor(config)) return { status: 'skipped', error: DISABLED_MESSAGE };
    if (!readsType(this.configs.fileTypes(config), file.ext)) {
      return { status: 'skipped', error: unsupportedMessage(file.name) };
    }
    if (!config.ocrAutoProcess) return { status: 'skipped', error: MANUAL_MESSAGE };
    return { status: 'pending', error: null };
  }

  private async created(
    m: EntityManager,
    config: OcrCompanyConfig,
    files: UploadedFile[],
  ): Promise<() => Promise<void>> {
    const pending: number[] = [];
    for (const file of files) {
      const { status, error } = this.initial(config, file);
      const doc = await this.documents.insert(m, {
        companyId: file.companyId,
        fileId: file.id,
        status,
        errorMessage: error,
        ocrLanguage: config.ocrLanguage,
        processedAt: status === 'skipped' ? new Date() : null,
      });
      if (status === 'pending') pending.push(doc.id);
      const row = {
        ...doc,
        fileName: file.name,
        mimeType: file.mime,
        fileSizeBytes: file.size,
      } as DocumentRow;
      await this.events.publish(m, {
        event: 'document.created',
        entityType: 'Document',
        entityId: doc.id,
        companyId: file.companyId,
        attributes: documentView(row),
      });
    }
    if (tenantContext.get().schema === PRODUCTION_SCHEMA) return async () => undefined;
    return () => this.queue.enqueue(pending);
  }
}
