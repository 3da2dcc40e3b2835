// The public face of documents: other features import from this file only.
export { DocumentsModule } from './documents.module';
export { TextExtraction } from './ocr/text-extraction';
