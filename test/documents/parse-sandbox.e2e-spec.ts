import { DocumentsSettings } from '../../src/documents/documents.settings';
import { inputLimits } from '../../src/documents/ocr/input-limits';
import { ParseSandbox } from '../../src/documents/ocr/parse-sandbox';
import { docxBomb, pdfBomb } from './bombs';
import { textDocx, textPdf } from './fixtures';

/**
 * The parse sandbox on its own, with the size limits lifted so that only its memory ceiling and the
 * time limit stand between a bomb and the process: each ends the thread, the next document is read.
 */
describe('parse sandbox', () => {
  const settings = Object.assign(new DocumentsSettings(), {
    OCR_SANDBOX_MEMORY_MB: 128,
    OCR_PDF_MAX_INFLATED_BYTES: 2 ** 31,
    OCR_DOCX_MAX_INFLATED_BYTES: 2 ** 31,
    OCR_DOCX_MAX_RATIO: 1_000_000,
  });
  const limits = inputLimits(settings);
  const sandbox = new ParseSandbox(settings);
  const parse = (content: Buffer, ext: string, ms = 60_000) =>
    sandbox.parse(content, ext, limits, AbortSignal.timeout(ms));
  afterAll(() => sandbox.onModuleDestroy());

  it('ends a process that reaches the memory ceiling and reads the next document', async () => {
    const heapBefore = process.memoryUsage().heapUsed;
    await expect(parse(docxBomb(400), '.docx')).rejects.toThrow(
      'Reading the document needed more than 128 MB of memory (OCR_SANDBOX_MEMORY_MB)',
    );
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
    const next = await parse(await textDocx(['After the bomb']), '.docx');
    expect(next.text).toContain('After the bomb');
  }, 120_000);

  it('aborts a parse past its time limit and reads the next document', async () => {
    const started = Date.now();
    await expect(parse(pdfBomb(300), '.pdf', 500)).rejects.toThrow(/aborted due to timeout/);
    expect(Date.now() - started).toBeLessThan(5000);
    const next = await parse(textPdf(['Still reading']), '.pdf');
    expect(next).toEqual({ text: 'Still reading', pages: 1, pageTexts: ['Still reading'] });
  }, 120_000);
});
