import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedOcrEngine } from '../../src/documents/ocr/embedded-engine';
import { ProvisionedClient, provisionClient, TestApp } from '../support/test-app';
import { until } from '../webhooks/receiver';
import { SmtpSink } from '../support/smtp-sink';
import { as, bootOcrApp, documentOf, enableOcr, upload } from './helpers';
import { textDocx } from './fixtures';

/** A title and a sentence per language, and a word from inside the sentence (for CJK: mid-line, no spaces around it). */
const PAGES = [
  {
    code: 'ch',
    title: '设备巡检记录',
    model: 'chi_sim',
    font: 'Noto Sans CJK SC',
    text: '变压器检查报告显示冷却系统正常运行',
    word: '冷却系统',
  },
  {
    code: 'japan',
    title: '設備点検記録',
    model: 'jpn',
    font: 'Noto Sans CJK JP',
    text: '変圧器の点検で冷却装置に異常は見つかりませんでした',
    word: '冷却装置',
  },
  {
    code: 'korean',
    title: '정기 점검 보고서',
    model: 'kor',
    font: 'Noto Sans CJK KR',
    text: '변압기 점검 결과 냉각장치에 이상이 없었습니다',
    word: '냉각장치',
  },
  {
    code: 'german',
    title: 'Prüfbericht Umspannwerk',
    model: 'deu',
    font: 'DejaVu Sans',
    text: 'Die Prüfung der Transformatoren ergab keine Schäden am Gehäuse',
    // The german configuration stems: the singular finds the plural of the page.
    word: 'Transformator',
  },
  {
    code: 'fr',
    title: 'Rapport de visite',
    model: 'fra',
    font: 'DejaVu Sans',
    text: "Le rapport signale une fuite d'huile sous le transformateur principal",
    word: 'fuites',
  },
  {
    code: 'en',
    title: 'Inspection report',
    model: 'eng',
    font: 'DejaVu Sans',
    text: 'The yearly inspection found corrosion on the cooling fins',
    word: 'inspections',
  },
] as const;

/** A 300 dpi PNG of lines of 12-point text, drawn by Pango with a font from the system. */
function renderLines(lines: string[], font: string): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'ocr-line-'));
  try {
    const file = join(dir, 'line.png');
    execFileSync('pango-view', [
      '--no-display',
      `--font=${font} 12`,
      '--dpi=300',
      '--margin=40',
      `--text=${lines.join('\n')}`,
      '-o',
      file,
    ]);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The six OCR languages: configuration, bundled models loaded on demand, and search by word. */
describe('OCR languages', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let close: () => Promise<void>;
  let acme: ProvisionedClient;
  let admin: Record<string, string>;
  let companyId: number;

  beforeAll(async () => {
    ({ sink, t, close } = await bootOcrApp({ OCR_LANGUAGE_IDLE_MS: '20000' }));
    acme = await provisionClient(t, sink, 'acme');
    admin = as(acme.adminToken, 'acme');
    companyId = await enableOcr(t, admin);
  }, 120_000);
  afterAll(async () => {
    await close?.();
  });

  const config = () => `/api/companies/${companyId}/ocr-config`;
  const search = (q: string) =>
    t.http().get('/search/documents').set(admin).query({ companyId, q }).expect(200);

  it('accepts each of the six language codes and refuses anything else with 400', async () => {
    for (const { code } of PAGES) {
      const put = await t.http().put(config()).set(admin).send({ ocrLanguage: code }).expect(200);
      expect(put.body.data.ocrLanguage).toBe(code);
      const got = await t.http().get(config()).set(admin).expect(200);
      expect(got.body.data.ocrLanguage).toBe(code);
    }
    for (const bad of ['spanish', 'GERMAN', 'de', '', 'german ', 'koreans', 42, null]) {
      const res = await t.http().put(config()).set(admin).send({ ocrLanguage: bad }).expect(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    const still = await t.http().get(config()).set(admin).expect(200);
    expect(still.body.data.ocrLanguage).toBe('en');
  });

  it('reads a page in each language with its bundled model, loaded only while in use', async () => {
    const engine = t.app.get(EmbeddedOcrEngine, { strict: false });
    expect(engine.loadedLanguages()).toEqual([]);
    for (const page of PAGES) {
      await t.http().put(config()).set(admin).send({ ocrLanguage: page.code }).expect(200);
      const png = renderLines([page.title, page.text], page.font);
      const up = await upload(t, admin, companyId, [[`${page.code}.png`, png]]).expect(201);
      const doc = await documentOf(t, admin, up.body[0].id);
      expect({ code: page.code, status: doc.status, error: doc.errorMessage }).toEqual({
        code: page.code,
        status: 'COMPLETED',
        error: null,
      });
      expect(doc.ocrLanguage).toBe(page.code);
      expect(engine.loadedLanguages()).toContain(page.model);

      const found = await search(page.word);
      const files = found.body.content.map((h: { fileId: number }) => h.fileId);
      expect({ text: doc.extractedText, files }).toEqual({ text: doc.extractedText, files: [up.body[0].id] });
      expect(found.body.content[0].highlight).toContain('<mark>');
    }
    // Idle for OCR_LANGUAGE_IDLE_MS, every language's workers are ended.
    await until(
      async () => engine.loadedLanguages(),
      (loaded) => loaded.length === 0,
      60_000,
    );
  }, 360_000);

  it('finds a CJK word inside a sentence, with a readable highlight, and not a word that is absent', async () => {
    await t.http().put(config()).set(admin).send({ ocrLanguage: 'ch' }).expect(200);
    const up = await upload(t, admin, companyId, [
      ['zh.docx', await textDocx(['本次巡检发现主变压器的油位偏低需要补油', 'pump station 7 valve'])],
    ]).expect(201);
    expect((await documentOf(t, admin, up.body[0].id)).status).toBe('COMPLETED');
    const ids = (body: { content: { fileId: number }[] }) => body.content.map((h) => h.fileId);

    const word = await search('油位');
    expect(ids(word.body)).toEqual([up.body[0].id]);
    expect(word.body.content[0].highlight).toContain('<mark>油位</mark>');
    expect(word.body.content[0].highlight).toMatch(/^<mark>油位<\/mark>偏低需要补油/);
    expect(ids((await search('变压器 油位')).body)).toEqual([up.body[0].id]);
    expect(ids((await search('"主变压器" valve')).body)).toEqual([up.body[0].id]);
    // The pairs must follow each other: 油 and 位 apart, or a word not on the page, find nothing.
    expect((await search('位油')).body.totalElements).toBe(0);
    expect((await search('冷却塔')).body.totalElements).toBe(0);
    expect(ids((await search('油位 -冷却')).body)).toEqual([up.body[0].id]);
    expect((await search('油位 -变压器')).body.totalElements).toBe(0);
  });
});
