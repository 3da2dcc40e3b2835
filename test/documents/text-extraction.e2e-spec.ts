import { DocumentsSettings } from '../../src/documents/documents.settings';
import { EmbeddedOcrEngine } from '../../src/documents/ocr/embedded-engine';
import { HttpOcrEngine } from '../../src/documents/ocr/http-engine';
import { TextExtraction } from '../../src/documents/ocr/text-extraction';
import { corruptPng, renderTextPng, textDocx, textPdf } from './fixtures';

/** The extraction layer on its own: the embedded engine's pool, PDF text layers, DOCX. */
describe('text extraction', () => {
  const settings = Object.assign(new DocumentsSettings(), { OCR_WORKERS: 1 });
  const engine = new EmbeddedOcrEngine(settings);
  const extraction = new TextExtraction(settings, engine, {} as HttpOcrEngine);
  afterAll(() => engine.onModuleDestroy());

  it('reads a rendered PNG, survives a corrupt one and keeps reading', async () => {
    const png = renderTextPng(['TURBINE INSPECTION 2026', 'GENERATOR BEARING REPORT']);
    const first = await extraction.extract(png, '.png', 'image/png', 'en');
    expect(first.text).toMatch(/TURBINE/);
    expect(first.text).toMatch(/BEARING/);
    expect(first.confidence).toBeGreaterThan(0.5);
    await expect(extraction.extract(corruptPng(), '.png', 'image/png', 'en')).rejects.toThrow(
      /Image could not be read/,
    );
    const again = await extraction.extract(png, '.png', 'image/png', 'en');
    expect(again.text).toMatch(/GENERATOR/);
  }, 120_000);

  it('reads a PDF text layer with its page count, and a DOCX', async () => {
    const pdf = await extraction.extract(
      textPdf(['Quarterly emissions report', 'Boiler seven']),
      '.pdf',
      'application/pdf',
      'en',
    );
    expect(pdf.text).toContain('Quarterly emissions report');
    expect(pdf.pages).toBe(1);
    const docx = await extraction.extract(
      await textDocx(['Permit renewal letter', 'Stack height']),
      '.docx',
      'x',
      'en',
    );
    expect(docx.text).toContain('Permit renewal letter');
    expect(docx.text).toContain('Stack height');
  });
});
