import { DocumentsSettings } from '../../src/documents/documents.settings';
import { inputLimits } from '../../src/documents/ocr/input-limits';
import { ParseSandbox } from '../../src/documents/ocr/parse-sandbox';
import {
  docxBomb,
  lzwSpaces,
  onePagePdf,
  pdfAscii85Bomb,
  pdfBomb,
  pdfChainBomb,
  pdfInlineImage,
  pdfLargePage,
  pdfLzwBomb,
  pdfRunLengthBomb,
} from './bombs';
import { textDocx, textPdf } from './fixtures';
import { sandboxMemoryMb } from './sandbox-memory';
import { until } from '../webhooks/receiver';

const MIB = 1024 * 1024;

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

/**
 * The size limits count what is decoded as it is decoded, whatever the file declares: each bomb
 * below would decode to 64 MiB or more (1 GiB for most), a full decode takes seconds, and each is
 * refused in well under that, naming its limit.
 */
describe('parse sandbox: decoded sizes are counted while decoding', () => {
  const settings = Object.assign(new DocumentsSettings(), {
    OCR_PDF_MAX_INFLATED_BYTES: MIB,
    OCR_DOCX_MAX_INFLATED_BYTES: MIB,
    OCR_IMAGE_MAX_PIXELS: 4_000_000,
  });
  const limits = inputLimits(settings);
  const sandbox = new ParseSandbox(settings);
  beforeAll(async () => {
    // A process started and warmed up, so the times below are the checks' own.
    await sandbox.parse(textPdf(['Warm up']), '.pdf', limits, AbortSignal.timeout(60_000));
    await sandbox.render(textPdf(['Warm up']), '.pdf', 0, limits, AbortSignal.timeout(60_000));
  }, 120_000);
  afterAll(() => sandbox.onModuleDestroy());

  it.each([
    ['an LZW content stream decoding to 1 GiB', () => pdfLzwBomb(1024), '.pdf', 'OCR_PDF_MAX_INFLATED_BYTES'],
    [
      'an LZW content stream labelled as an image, decoding to 1 GiB',
      () => onePagePdf(lzwSpaces(1024), '/Subtype /Image /Width 1 /Height 1 /Filter /LZWDecode'),
      '.pdf',
      'OCR_PDF_MAX_INFLATED_BYTES',
    ],
    [
      'a RunLength content stream decoding to 64 MiB',
      () => pdfRunLengthBomb(64),
      '.pdf',
      'OCR_PDF_MAX_INFLATED_BYTES',
    ],
    [
      'an ASCII85 content stream decoding to 4 MiB',
      () => pdfAscii85Bomb(4),
      '.pdf',
      'OCR_PDF_MAX_INFLATED_BYTES',
    ],
    [
      'an ASCII85 over Flate content stream decoding to 1 GiB',
      () => pdfChainBomb(1024),
      '.pdf',
      'OCR_PDF_MAX_INFLATED_BYTES',
    ],
    [
      'a DOCX declaring 4 KiB for an entry inflating to 512 MiB',
      () => docxBomb(512, 4096),
      '.docx',
      'OCR_DOCX_MAX_INFLATED_BYTES',
    ],
  ])(
    'refuses %s as soon as the count passes the limit',
    async (_what, build, ext, limit) => {
      const bomb = build();
      expect(bomb.length).toBeLessThan(2 * MIB);
      const started = Date.now();
      await expect(sandbox.parse(bomb, ext, limits, AbortSignal.timeout(30_000))).rejects.toThrow(
        `(${limit})`,
      );
      expect(Date.now() - started).toBeLessThan(2000);
    },
    60_000,
  );

  it.each([
    ['in its content', false],
    ['in a form XObject it draws', true],
  ])(
    'refuses to render a page drawing an inline image too large %s',
    async (_where, inForm) => {
      await expect(
        sandbox.render(pdfInlineImage(3000, 3000, inForm), '.pdf', 0, limits, AbortSignal.timeout(30_000)),
      ).rejects.toThrow(
        'PDF page 1 holds an inline image of 3000×3000 pixels, over the limit of 4000000 pixels (OCR_IMAGE_MAX_PIXELS)',
      );
    },
    60_000,
  );
});

/** A process that grew past OCR_SANDBOX_MEMORY_MB is replaced before its next task. */
describe('parse sandbox: a process over its memory budget', () => {
  const settings = Object.assign(new DocumentsSettings(), {
    OCR_SANDBOX_MEMORY_MB: 192,
    OCR_IMAGE_MAX_PIXELS: 100_000_000,
  });
  const limits = inputLimits(settings);
  const sandbox = new ParseSandbox(settings);
  afterAll(() => sandbox.onModuleDestroy());

  it('is replaced after the task that grew it, and the next document is read', async () => {
    const signal = () => AbortSignal.timeout(60_000);
    await sandbox.parse(textPdf(['Before the big page']), '.pdf', limits, signal());
    const [first] = sandboxMemoryMb();
    expect(first.resident).toBeLessThan(192);
    // Rendered at 10000×10000 pixels, in MuPDF's WebAssembly memory, which never shrinks.
    const page = await sandbox.render(pdfLargePage(7200), '.pdf', 0, limits, signal());
    expect(page.width * page.height).toBeGreaterThan(90_000_000);
    await until(
      () => Promise.resolve(sandboxMemoryMb()),
      (now) => !now.some(({ pid }) => pid === first.pid),
      10_000,
    );
    const next = await sandbox.parse(textPdf(['After the big page']), '.pdf', limits, signal());
    expect(next.text).toBe('After the big page');
    for (const { resident } of sandboxMemoryMb()) expect(resident).toBeLessThan(192);
  }, 120_000);
});
