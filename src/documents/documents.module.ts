import { DynamicModule, Module, Provider } from '@nestjs/common';
import { settingsProvider } from '../config/config.module';
import { FilesModule } from '../files';
import { OutboundModule } from '../outbound/outbound.module';
import { DocumentAnalysisController } from './document-analysis.controller';
import { DocumentIntake } from './document-intake';
import { DocumentProcessing } from './document-processing';
import { DocumentSearchController } from './document-search.controller';
import { DocumentSearchService } from './document-search.service';
import { DocumentsAdminController } from './documents-admin.controller';
import { DocumentsService } from './documents.service';
import { DocumentsSettings } from './documents.settings';
import { OcrActions } from './ocr-actions';
import { OcrConfigController } from './ocr-config.controller';
import { OcrConfigStore } from './ocr-config.store';
import { OcrDispatcher } from './ocr-dispatcher';
import { OcrMetrics } from './ocr-metrics';
import { OcrQueue } from './ocr-queue';
import { OcrProcessor } from './ocr.processor';
import { EmbeddedOcrEngine } from './ocr/embedded-engine';
import { HttpOcrEngine } from './ocr/http-engine';
import { ParseSandbox } from './ocr/parse-sandbox';
import { TextExtraction } from './ocr/text-extraction';
import { DocumentContent } from './entities/document-content.entity';
import { DocumentSearchRepository } from './document-search.repository';
import { DocumentsRepository } from './documents.repository';
import { OcrConfigRepository } from './ocr-config.repository';

export const DOCUMENT_ENTITIES = [DocumentContent];

/**
 * The OCR pipeline over uploaded files (its intake is an upload hook), document analysis records
 * and their search. The outbox consumer that queues OCR jobs runs in every process (any replica may
 * relay); the OCR processor only where queue processors are enabled.
 */
@Module({})
export class DocumentsModule {
  static register(options: { processors: boolean }): DynamicModule {
    const processors: Provider[] = options.processors ? [OcrProcessor] : [];
    return {
      module: DocumentsModule,
      imports: [OutboundModule, FilesModule],
      controllers: [
        OcrConfigController,
        DocumentAnalysisController,
        DocumentSearchController,
        DocumentsAdminController,
      ],
      providers: [
        settingsProvider(DocumentsSettings),
        DocumentsRepository,
        DocumentSearchRepository,
        OcrConfigRepository,
        OcrConfigStore,
        OcrQueue,
        OcrMetrics,
        EmbeddedOcrEngine,
        HttpOcrEngine,
        ParseSandbox,
        TextExtraction,
        DocumentIntake,
        DocumentProcessing,
        DocumentsService,
        DocumentSearchService,
        OcrActions,
        OcrDispatcher,
        ...processors,
      ],
      exports: [TextExtraction, DocumentsSettings],
    };
  }
}
