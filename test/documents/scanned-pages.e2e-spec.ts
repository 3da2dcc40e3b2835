import { provisionClient, TestApp } from '../support/test-app';
import { renderTextPng } from './fixtures';
import { as, bootOcrApp, documentOf, enableOcr, upload } from './helpers';
import { grey, GreyImage, multiPageTiff, pagesPdf } from './scans';

/** One scanned page: lines of capitals as a scanner at 300 dpi would see them. */
const scan = (...lines: string[]): GreyImage => grey(renderTextPng(lines, 3));

interface Snapshot {
  status: string;
  pageCount: number;
  pagesProcessed: number;
}

/**
 * Scanned and mixed PDFs and multi-page TIFF read by the embedded engine, page by page: pages without
 * a text layer are rendered in the parse sandbox and OCR'd, pages with one keep their text, the
 * record shows pages done of the page count while it is read, and what is over the page or pixel
 * limits ends FAILED naming the limit while the process keeps serving. OCR_PDF_MAX_PAGES is 3 here.
 */
describe('scanned pages', () => {
  let app: Awaited<ReturnType<typeof bootOcrApp>>;
  let t: TestApp;
  let acme: Record<string, string>;
  let companyId: number;

  beforeAll(async () => {
    app = await bootOcrApp({ OCR_PDF_MAX_PAGES: '3' });
    t = app.t;
    acme = as((await provisionClient(t, app.sink, 'acme')).adminToken, 'acme');
    companyId = await enableOcr(t, acme);
  }, 180_000);
  afterAll(() => app?.close());

  const uploaded = async (name: string, content: Buffer): Promise<number> =>
    (await upload(t, acme, companyId, [[name, content]]).expect(201)).body[0].id as number;

  const search = async (q: string): Promise<number[]> => {
    const res = await t.http().get('/search/documents').set(acme).query({ companyId, q }).expect(200);
    return (res.body.content as { fileId: number }[]).map((hit) => hit.fileId);
  };

  /** The record, read every 50 ms until it ends; answers the snapshots seen while PROCESSING too. */
  async function watch(fileId: number) {
    const seen: Snapshot[] = [];
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      const res = await t.http().get(`/search/documents/${fileId}`).set(acme);
      if (res.status === 200) {
        if (res.body.status === 'PROCESSING') seen.push(res.body as Snapshot);
        if (['COMPLETED', 'FAILED'].includes(res.body.status))
          return { seen, document: await documentOf(t, acme, fileId) };
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`document of file ${fileId} did not end`);
  }

  it('reads a two-page image-only PDF, shows its progress and finds it by a word of page 2', async () => {
    const pdf = pagesPdf([
      { scan: scan('BOILER INSPECTION REPORT', 'NORTH PLANT') },
      { scan: scan('FEEDWATER PUMP OVERHAUL', 'SIGNED BY THE REGULATOR') },
    ]);
    const fileId = await uploaded('scan.pdf', pdf);
    const { seen, document } = await watch(fileId);
    expect(document).toMatchObject({ status: 'COMPLETED', pageCount: 2, pagesProcessed: 2 });
    expect(document.extractedText).toMatch(/BOILER INSPECTION REPORT[\s\S]*FEEDWATER PUMP OVERHAUL/);
    expect(document.ocrConfidence).toBeGreaterThan(0.5);
    expect(document.ocrConfidence).toBeLessThan(1);
    // Seen while it was read: the page count known, fewer pages done than that.
    expect(seen.some((s) => s.pageCount === 2 && s.pagesProcessed < 2)).toBe(true);
    expect(seen.every((s) => s.pagesProcessed <= s.pageCount)).toBe(true);
    expect(await search('feedwater')).toEqual([fileId]);
  }, 120_000);

  it('reads every page of a three-page TIFF and finds it by a word of page 3', async () => {
    const tiff = multiPageTiff(
      [scan('FAX COVER SHEET'), scan('TRANSFORMER OUTAGE NOTICE'), scan('GEARBOX VIBRATION READINGS')],
      200,
    );
    const fileId = await uploaded('fax.tiff', tiff);
    const { document } = await watch(fileId);
    expect(document).toMatchObject({ status: 'COMPLETED', pageCount: 3, pagesProcessed: 3 });
    expect(document.extractedText).toMatch(/FAX COVER SHEET[\s\S]*OUTAGE[\s\S]*GEARBOX VIBRATION/);
    expect(await search('gearbox')).toEqual([fileId]);
  }, 120_000);

  it('keeps the text layer of page 1 and OCRs the scanned page 2 of a mixed PDF', async () => {
    const pdf = pagesPdf([
      { text: ['Permit renewal application', 'Stack height 45 m'] },
      { scan: scan('CONDENSER TUBE LEAK', 'REPAIRED ON SITE') },
    ]);
    const fileId = await uploaded('mixed.pdf', pdf);
    const { document } = await watch(fileId);
    expect(document).toMatchObject({ status: 'COMPLETED', pageCount: 2, pagesProcessed: 2 });
    expect(document.extractedText).toMatch(
      /^Permit renewal application\nStack height 45 m\n\nCONDENSER TUBE LEAK/,
    );
    expect(await search('condenser')).toEqual([fileId]);
    expect(await search('permit')).toEqual([fileId]);
  }, 120_000);

  it.each([
    [
      'a scanned PDF over the page limit',
      'long.pdf',
      () => pagesPdf([1, 2, 3, 4].map((n) => ({ scan: scan(`PAGE ${n}`) }))),
      /^PDF has 4 pages, over the limit of 3 \(OCR_PDF_MAX_PAGES\)$/,
    ],
    [
      'a TIFF over the page limit',
      'long.tiff',
      () => multiPageTiff([1, 2, 3, 4].map((n) => scan(`PAGE ${n}`))),
      /^TIFF has more than 3 pages \(OCR_PDF_MAX_PAGES\)$/,
    ],
    [
      'a PDF page of 200 × 200 inches',
      'poster.pdf',
      () => pagesPdf([{ text: ['Cover'] }, { blankPoints: 14400 }]),
      /^PDF page 2 is 14400×14400 points: at 100 dpi it is over the limit of 40000000 pixels \(OCR_IMAGE_MAX_PIXELS\)$/,
    ],
    [
      'a PDF page drawing an image that declares 30000 × 30000 pixels',
      'bomb.pdf',
      () => pagesPdf([{ scan: { width: 30000, height: 30000, data: Buffer.alloc(64) }, dpi: 3000 }]),
      /^PDF page 1 holds an image of 30000×30000 pixels, over the limit of 40000000 pixels \(OCR_IMAGE_MAX_PIXELS\)$/,
    ],
    [
      'a TIFF page of 10000 × 5000 pixels',
      'huge.tiff',
      () => multiPageTiff([scan('FIRST'), { width: 10000, height: 5000, data: Buffer.alloc(16) }]),
      /^TIFF page 2 is 10000×5000 pixels, over the limit of 40000000 pixels \(OCR_IMAGE_MAX_PIXELS\)$/,
    ],
  ])(
    'fails %s naming its limit, and the process keeps reading',
    async (_what, name, build, message) => {
      const fileId = await uploaded(name, build());
      const { document } = await watch(fileId);
      expect(document.status).toBe('FAILED');
      expect(document.errorMessage).toMatch(message);
      await t.http().get('/api/units').set(acme).expect(200);
      const next = await uploaded('next.pdf', pagesPdf([{ scan: scan('RELAY TEST PASSED') }]));
      const after = await documentOf(t, acme, next);
      expect(after).toMatchObject({ status: 'COMPLETED', pageCount: 1 });
      expect(after.extractedText).toMatch(/RELAY TEST PASSED/);
    },
    120_000,
  );
});
