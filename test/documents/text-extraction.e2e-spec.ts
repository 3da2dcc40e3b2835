import { DocumentsSettings } from '../../src/documents/documents.settings';
import { EmbeddedOcrEngine } from '../../src/documents/ocr/embedded-engine';
import { HttpOcrEngine } from '../../src/documents/ocr/http-engine';
import { ParseSandbox } from '../../src/documents/ocr/parse-sandbox';
import { TextExtraction } from '../../src/documents/ocr/text-extraction';
import { corruptPng, renderTextPng, textDocx, textPdf } from './fixtures';

/** The extraction layer on its own: the embedded engine's pool, PDF text layers, DOCX. */
describe('text extraction', () => {
  const settings = Object.assign(new DocumentsSettings(), { OCR_WORKERS: 1 });
  const engine = new EmbeddedOcrEngine(settings);
  const sandbox = new ParseSandbox(settings);
  const extraction = new TextExtraction(settings, engine, {} as HttpOcrEngine, sandbox);
  afterAll(() => Promise.all([engine.onModuleDestroy(), sandbox.onModuleDestroy()]));

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

  it('reads two columns one after the other, as the tesseract program does', async () => {
    const left = [
      'TURBINE HALL NORTH',
      'BOILER FEED PUMP',
      'COOLANT LOOP TWO',
      'STACK EMISSION LOG',
      'VALVE SEVEN OPEN',
    ];
    const right = [
      'GEARBOX OIL CHANGE',
      'ROTOR BLADE CRACK',
      'TOWER BOLT TORQUE',
      'NACELLE DOOR SEAL',
      'INVERTER FAULT',
    ];
    const png = renderTextPng(left.map((line, i) => line.padEnd(30) + right[i]));
    const { text } = await extraction.extract(png, '.png', 'image/png', 'en');
    const lines = text.split('\n').filter((line) => line.trim());
    expect(lines).toEqual([...left, ...right]);
  }, 120_000);

  it('reads with the "best" models of the npm language packages when OCR_MODEL=best', async () => {
    const best = new EmbeddedOcrEngine(
      Object.assign(new DocumentsSettings(), { OCR_WORKERS: 1, OCR_MODEL: 'best' }),
    );
    try {
      const png = renderTextPng(['FEEDWATER PUMP OVERHAUL', 'STATOR WINDING TEST']);
      const { text } = await best.recognize(png, 'image/png', 'en');
      expect(text).toMatch(/FEEDWATER/);
      expect(text).toMatch(/WINDING/);
    } finally {
      await best.onModuleDestroy();
    }
  }, 120_000);

  it('reads French with the bundled French data', async () => {
    const png = renderTextPng(['RAPPORT DE MAINTENANCE', 'CHAUDIERE ET ALTERNATEUR']);
    const { text, confidence } = await extraction.extract(png, '.png', 'image/png', 'fr');
    expect(text).toMatch(/RAPPORT DE MAINTENANCE/);
    expect(text).toMatch(/CHAUDIERE ET ALTERNATEUR/);
    expect(confidence).toBeGreaterThan(0.5);
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
