/**
 * Scanned pages bench, two parts:
 *
 * 1. Character error rate, per language whose model ships in vendor/tessdata-fast: BENCH_CER_PAGES
 *    pages of sentences typeset at 11 pt and rendered at 300 dpi (MuPDF; Latin scripts in its built-in
 *    Times, Chinese, Japanese and Korean in Noto Sans CJK from Debian's fonts-noto-cjk), read by the
 *    embedded engine and by the `tesseract` program (Debian package tesseract-ocr) with the same
 *    model file (--tessdata-dir), page segmentation as the program's default (--psm 3) and, for a
 *    language the engine reads otherwise (Korean: one column; Japanese: no noise removal), also with
 *    the engine's settings. CER = edit
 *    distance / characters of the page, whitespace runs counted as one space (Korean included, which
 *    spaces its words), not counted at all for Chinese and Japanese (written without spaces; Tesseract
 *    may space their characters apart). Target: the engine's CER at most the program's, and at most 3 %.
 * 2. Scanned-PDF throughput: BENCH_SCAN_FILES image-only PDFs of BENCH_SCAN_PAGES pages each (English
 *    pages as above, embedded as 300-dpi grey scans) read by the pipeline's text extraction (parse
 *    sandbox renders, embedded engine reads) with BENCH_OCR_WORKERS workers and as many documents at a
 *    time, in pages per minute, beside `ocrmypdf` (Debian package) on the same files, as many files at a
 *    time, each with `-j 1` (one page at a time, as a job here), the same model (TESSDATA_PREFIX), text
 *    only (`--output-type none --sidecar`), both at nice 5 (ocrmypdf sets it for itself). Target: at
 *    least 0.8 of its throughput.
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/documents/pages.js
 *
 * A part whose program is missing is skipped with a note; so is a CJK language without the font.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { getPriority, setPriority, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Tesseract from 'tesseract.js';
import { DocumentsSettings } from '../../src/documents/documents.settings';
import {
  EmbeddedOcrEngine,
  modelParameters,
  pageSegmentation,
} from '../../src/documents/ocr/embedded-engine';
import { HttpOcrEngine } from '../../src/documents/ocr/http-engine';
import { mupdf } from '../../src/documents/ocr/mupdf-module';
import { ParseSandbox } from '../../src/documents/ocr/parse-sandbox';
import { TextExtraction } from '../../src/documents/ocr/text-extraction';
import { pagesPdf } from '../../test/documents/scans';
import { fmt } from '../bench-env';

const CER_PAGES = Number(process.env.BENCH_CER_PAGES ?? 2);
const SCAN_FILES = Number(process.env.BENCH_SCAN_FILES ?? 4);
const SCAN_PAGES = Number(process.env.BENCH_SCAN_PAGES ?? 6);
const WORKERS = Number(process.env.BENCH_OCR_WORKERS ?? 2);
/** Models to measure (comma-separated, e.g. `jpn,kor`); all vendored ones by default. */
const CER_LANGS = process.env.BENCH_CER_LANGS?.split(',').filter(Boolean);
/** At most this many of each language's sentences (the first ones); all of them by default. */
const CER_LINES = Number(process.env.BENCH_CER_LINES ?? Infinity);
/** A folder to keep each page's image and both readings in, to look at the errors. */
const CER_KEEP = process.env.BENCH_CER_KEEP;

/** ocrmypdf's own niceness. */
const NICE = 5;
const TESSDATA = dirname(require.resolve('@svc-platform/tessdata-fast/package.json'));
const CJK_FONT = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';

interface Language {
  /** The caller's code (what the engine is asked for). */
  code: string;
  /** Subfont of Noto Sans CJK (its collection holds JP, KR, SC, TC, HK in this order); none: Latin. */
  cjk?: number;
  /** Written without spaces between words (Chinese, Japanese): whitespace is not counted. */
  unspaced?: true;
  lines: string[];
}

/** Sentences as operators write them, per Tesseract model name. */
const LANGUAGES: Record<string, Language> = {
  eng: {
    code: 'en',
    lines: [
      'The annual inspection of turbine 4 found wear on the thrust bearing.',
      'Oil samples were taken from the gearbox and sent to the laboratory.',
      'Vibration on the generator rose to 7.2 mm/s during the night shift.',
      'The feedwater pump was overhauled and its seals were replaced.',
      'Emissions from stack 2 stayed below the permitted limit all quarter.',
      'A crack was found in the blade root; the rotor stays out of service.',
      'The transformer was tested at 110 kV and passed all of the checks.',
      'Work order 2291 closes once the new valve has been pressure tested.',
      'The regulator asked for the signed report before the end of March.',
      'Cooling water temperature must not exceed 28 degrees at the outlet.',
      'The safety relay tripped twice; the cause was a loose terminal screw.',
      'Next outage: 12 to 19 May, boiler feed and condenser cleaning.',
    ],
  },
  fra: {
    code: 'fr',
    lines: [
      "L'inspection annuelle de la turbine 4 a révélé une usure du palier.",
      "Des échantillons d'huile ont été prélevés sur le réducteur.",
      'Les vibrations de l’alternateur ont atteint 7,2 mm/s cette nuit.',
      "La pompe d'alimentation a été révisée et ses joints remplacés.",
      'Les émissions de la cheminée 2 sont restées sous la limite autorisée.',
      'Une fissure a été trouvée au pied de la pale ; le rotor est arrêté.',
      'Le transformateur a été essayé à 110 kV et a passé tous les contrôles.',
      "L'ordre de travail 2291 sera clos après l'essai de la nouvelle vanne.",
      "L'autorité demande le rapport signé avant la fin du mois de mars.",
      "L'eau de refroidissement ne doit pas dépasser 28 degrés en sortie.",
      'Le relais de sécurité a déclenché deux fois : une borne desserrée.',
      'Prochain arrêt : du 12 au 19 mai, chaudière et condenseur.',
    ],
  },
  deu: {
    code: 'german',
    lines: [
      'Bei der Jahresinspektion von Turbine 4 wurde Lagerverschleiß festgestellt.',
      'Ölproben aus dem Getriebe wurden an das Labor geschickt.',
      'Die Schwingung am Generator stieg in der Nacht auf 7,2 mm/s.',
      'Die Speisewasserpumpe wurde überholt und die Dichtungen ersetzt.',
      'Die Emissionen aus Schornstein 2 blieben unter dem Grenzwert.',
      'Am Blattfuß wurde ein Riss gefunden; der Rotor bleibt außer Betrieb.',
      'Der Transformator wurde mit 110 kV geprüft und hat bestanden.',
      'Auftrag 2291 wird nach der Druckprüfung des neuen Ventils geschlossen.',
      'Die Behörde verlangt den unterschriebenen Bericht bis Ende März.',
      'Das Kühlwasser darf am Auslass höchstens 28 Grad warm sein.',
      'Das Sicherheitsrelais löste zweimal aus: eine lose Klemmschraube.',
      'Nächster Stillstand: 12. bis 19. Mai, Kessel und Kondensator.',
    ],
  },
  chi_sim: {
    code: 'ch',
    cjk: 2,
    unspaced: true,
    lines: [
      '四号涡轮机年度检查发现推力轴承磨损。',
      '从齿轮箱采集了油样并送往实验室。',
      '夜班期间发电机振动升至每秒七毫米。',
      '给水泵已经大修，密封件全部更换。',
      '二号烟囱本季度排放一直低于许可限值。',
      '叶根发现裂纹，转子继续停止运行。',
      '变压器通过了全部试验。',
      '新阀门压力试验合格后关闭工单。',
      '监管机构要求在三月底前提交签字报告。',
      '出口冷却水温度不得超过二十八度。',
      '安全继电器两次跳闸，原因是端子螺丝松动。',
      '下次停机检修安排在五月中旬。',
    ],
  },
  jpn: {
    code: 'japan',
    cjk: 0,
    unspaced: true,
    lines: [
      '四号タービンの年次点検で軸受の摩耗が見つかった。',
      '歯車箱から油を採取して試験所に送った。',
      '夜勤の間に発電機の振動が大きくなった。',
      '給水ポンプを分解整備し、パッキンを交換した。',
      '二号煙突の排出量は許可値を下回っていた。',
      '羽根の根元に亀裂があり、回転子は停止中である。',
      '変圧器はすべての試験に合格した。',
      '新しい弁の耐圧試験の後に作業指示を閉じる。',
      '規制当局は三月末までに署名済みの報告書を求めている。',
      '出口の冷却水の温度は二十八度を超えてはならない。',
      '安全継電器が二回作動した。端子のねじが緩んでいた。',
      '次の停止は五月の中旬に予定されている。',
      '三号ボイラーの安全弁を定期点検のために取り外した。',
      '冷却塔の送風機に異音があり、軸受を交換する予定である。',
      '主変圧器の絶縁油を分析したところ、水分が基準値を超えていた。',
      '制御盤の表示灯が点滅したため、電源回路を確認した。',
      '復水器の細管から漏えいが見つかり、該当箇所を閉止した。',
      '非常用発電機の起動試験は毎月第一月曜日に行う。',
      '配管の肉厚測定の結果、腐食による減肉は認められなかった。',
      '作業員は保護具を着用してから設備に近づくこと。',
      '点検記録は作業終了後三日以内に提出しなければならない。',
      '圧縮機の吐出温度が上昇したので、負荷を下げて運転を続けた。',
      '燃料タンクの液面計を校正し、誤差が許容範囲内であることを確かめた。',
      '蒸気タービンの振動値は前回の測定とほぼ同じであった。',
      '排水処理設備の水質を毎日記録している。',
      '遮断器の動作時間を測定し、仕様書の値と比較した。',
      '高所作業の前に足場の固定状態を確認する。',
      '潤滑油の交換周期を六か月から一年に延長することを検討している。',
      '計装用空気の圧力低下により、調節弁が全開になった。',
      '定期検査の期間中は発電を停止する。',
      '溶接部の非破壊検査で小さな欠陥が二か所見つかった。',
      '予備品の在庫が不足しているため、至急発注する必要がある。',
      '火災報知器の感知器を全数点検し、不良品を取り替えた。',
      '電動機の絶縁抵抗は良好で、再使用に問題はない。',
      '試運転の結果は報告書にまとめて所長に提出した。',
      '雨水の浸入を防ぐため、屋外盤の扉のパッキンを新しくした。',
    ],
  },
  kor: {
    code: 'korean',
    cjk: 1,
    lines: [
      '4호 터빈 연례 점검에서 베어링 마모가 발견되었다.',
      '기어박스에서 오일 시료를 채취하여 실험실로 보냈다.',
      '야간 근무 중 발전기 진동이 크게 증가했다.',
      '급수 펌프를 정비하고 밀봉재를 모두 교체했다.',
      '2호 굴뚝의 배출량은 허용 한도 이하로 유지되었다.',
      '블레이드 뿌리에서 균열이 발견되어 운전을 중지했다.',
      '변압기는 모든 시험을 통과했다.',
      '새 밸브의 압력 시험이 끝나면 작업 지시를 종료한다.',
      '규제 기관은 3월 말까지 서명된 보고서를 요구했다.',
      '출구 냉각수 온도는 28도를 넘으면 안 된다.',
      '안전 계전기가 두 번 작동했으며 원인은 단자 나사였다.',
      '다음 정지는 5월 중순으로 예정되어 있다.',
    ],
  },
};

interface Page {
  lines: string[];
  /** 300-dpi grey PNG. */
  png: Buffer;
  grey: { width: number; height: number; data: Buffer };
}

/** A4 at 300 dpi: `lines` at 11 pt from the top left margin, black on white. */
async function typeset(lines: string[], language: Language): Promise<Page> {
  const lib = await mupdf();
  const scale = 300 / 72;
  const pixmap = new lib.Pixmap(
    lib.ColorSpace.DeviceGray,
    [0, 0, Math.round(595 * scale), Math.round(842 * scale)],
    false,
  );
  pixmap.clear(255);
  pixmap.setResolution(300, 300);
  const font =
    language.cjk === undefined
      ? new lib.Font('Times-Roman')
      : new lib.Font('NotoSansCJK', CJK_FONT, language.cjk);
  const text = new lib.Text();
  lines.forEach((line, i) => text.showString(font, [11, 0, 0, -11, 72, 90 + i * 18], line));
  const device = new lib.DrawDevice(lib.Matrix.scale(scale, scale), pixmap);
  device.fillText(text, lib.Matrix.identity, lib.ColorSpace.DeviceGray, [0], 1);
  device.close();
  const png = Buffer.from(pixmap.asPNG());
  const [width, height, stride] = [pixmap.getWidth(), pixmap.getHeight(), pixmap.getStride()];
  const pixels = pixmap.getPixels();
  const data = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) data.set(pixels.subarray(y * stride, y * stride + width), y * width);
  return { lines, png, grey: { width, height, data } };
}

/** The lines of page `n`: the language's sentences, rotated so that each page differs. */
const pageLines = (lines: string[], n: number) => lines.map((_, i) => lines[(i + n * 5) % lines.length]);

/**
 * Whitespace runs count as one space (line breaks and blank lines are layout, not text); in scripts
 * written without spaces they count not at all, since Tesseract may set spaces between their characters.
 */
const normalise = (text: string, unspaced: boolean) =>
  unspaced ? text.replace(/\s+/g, '') : text.replace(/\s+/g, ' ').trim();

function editDistance(a: string, b: string): number {
  const [x, y] = [[...a], [...b]];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      current[j] = Math.min(
        previous[j] + 1,
        current[j - 1] + 1,
        previous[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[y.length];
}

/** Edit distance over the characters of the documents (their pages' lines), all together. */
function cer(documents: Page[][], texts: string[], unspaced: boolean): number {
  let errors = 0;
  let chars = 0;
  documents.forEach((pages, i) => {
    const truth = normalise(pages.map((page) => page.lines.join('\n')).join('\n'), unspaced);
    errors += editDistance(truth, normalise(texts[i], unspaced));
    chars += [...truth].length;
  });
  return errors / chars;
}

/** A ratio of error rates; both 0 is equal. */
const ratio = (a: number, b: number) => (b ? fmt(a / b, 2) : a ? 'above 0 against 0' : '1.00 (both 0)');

function run(command: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      command,
      args,
      { env: { ...process.env, OMP_THREAD_LIMIT: '1', ...env }, maxBuffer: 64 * 1024 * 1024 },
      (err, out, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(out)),
    ),
  );
}

const installed = (command: string) =>
  run(command, ['--version']).then(
    () => true,
    () => false,
  );

async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

/** The vendored models, un-gzipped into `dir` (the program reads `<lang>.traineddata`). */
async function unpackModels(dir: string): Promise<string[]> {
  const models = readdirSync(TESSDATA)
    .filter((f) => f.endsWith('.traineddata.gz'))
    .map((f) => f.replace('.traineddata.gz', ''));
  for (const lang of models) {
    await writeFile(
      join(dir, `${lang}.traineddata`),
      gunzipSync(await readFile(join(TESSDATA, `${lang}.traineddata.gz`))),
    );
  }
  return models;
}

async function benchCer(dir: string, models: string[], cli: boolean) {
  const engine = new EmbeddedOcrEngine(
    Object.assign(new DocumentsSettings(), { OCR_WORKERS: 1, OCR_LANG_PATH: dir }),
  );
  try {
    for (const model of models) {
      if (CER_LANGS && !CER_LANGS.includes(model)) continue;
      const language = LANGUAGES[model];
      if (!language) {
        console.log(`cer ${model}: no sample text in the bench, skipped`);
        continue;
      }
      if (language.cjk !== undefined && !existsSync(CJK_FONT)) {
        console.log(`cer ${model}: ${CJK_FONT} missing (apt-get install fonts-noto-cjk), skipped`);
        continue;
      }
      const pages = await Promise.all(
        Array.from({ length: CER_PAGES }, (_, n) =>
          typeset(pageLines(language.lines.slice(0, CER_LINES), n), language),
        ),
      );
      await engine.recognize(pages[0].png, 'image/png', language.code); // the worker created, not timed
      const started = Date.now();
      const embedded: string[] = [];
      for (const page of pages)
        embedded.push((await engine.recognize(page.png, 'image/png', language.code)).text);
      const embeddedMs = (Date.now() - started) / pages.length;
      const unspaced = language.unspaced === true;
      const pageCer = (texts: string[]) =>
        cer(
          pages.map((page) => [page]),
          texts,
          unspaced,
        );
      const embeddedCer = pageCer(embedded);
      let line = `cer ${model}: embedded ${fmt(embeddedCer * 100, 2)} % (${fmt(embeddedMs, 0)} ms/page)`;
      if (cli) {
        const program = await readWithProgram(dir, model, pages, '3');
        const programCer = pageCer(program.texts);
        line +=
          `, tesseract program ${fmt(programCer * 100, 2)} % (${fmt(program.ms, 0)} ms/page); ` +
          `CER embedded/program ${ratio(embeddedCer, programCer)} ` +
          '(target <= 1, and embedded <= 3 %)';
        const psm = pageSegmentation(model);
        const parameters = modelParameters(model);
        if (psm !== Tesseract.PSM.AUTO || Object.keys(parameters).length) {
          // The engine reads this language's pages otherwise: the program with the same settings too.
          const same = await readWithProgram(dir, model, pages, psm, parameters);
          const settings = [`--psm ${psm}`, ...Object.entries(parameters).map(([k, v]) => `-c ${k}=${v}`)];
          line += `; program with the engine's ${settings.join(' ')}: ${fmt(pageCer(same.texts) * 100, 2)} %`;
        }
        if (CER_KEEP) await keep(model, pages, embedded, program.texts);
      }
      console.log(line);
    }
  } finally {
    await engine.onModuleDestroy();
  }
}

/** The `tesseract` program's reading of each page, with page segmentation mode `psm` and `parameters`. */
async function readWithProgram(
  dir: string,
  model: string,
  pages: Page[],
  psm: string,
  parameters: Record<string, string> = {},
) {
  const settings = Object.entries(parameters).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  const texts: string[] = [];
  const started = Date.now();
  for (const [i, page] of pages.entries()) {
    const path = join(dir, `cer-${model}-${i}.png`);
    await writeFile(path, page.png);
    texts.push(
      await run('tesseract', [
        ...[path, '-', '-l', model, '--tessdata-dir', dir, '--oem', '1', '--psm', psm],
        ...settings,
      ]),
    );
  }
  return { texts, ms: (Date.now() - started) / pages.length };
}

/** Each page's image, its text and both readings, in CER_KEEP. */
async function keep(model: string, pages: Page[], embedded: string[], program: string[]) {
  await mkdir(CER_KEEP!, { recursive: true });
  for (const [i, page] of pages.entries()) {
    const name = join(CER_KEEP!, `${model}-${i}`);
    await writeFile(`${name}.png`, page.png);
    await writeFile(`${name}.truth.txt`, page.lines.join('\n'));
    await writeFile(`${name}.embedded.txt`, embedded[i]);
    await writeFile(`${name}.program.txt`, program[i]);
  }
}

async function benchThroughput(dir: string) {
  const english = LANGUAGES.eng;
  const files: string[] = [];
  const truth: Page[][] = [];
  for (let f = 0; f < SCAN_FILES; f++) {
    const pages = await Promise.all(
      Array.from({ length: SCAN_PAGES }, (_, p) =>
        typeset(pageLines(english.lines, f * SCAN_PAGES + p), english),
      ),
    );
    truth.push(pages);
    const path = join(dir, `scan-${f}.pdf`);
    await writeFile(path, pagesPdf(pages.map((page) => ({ scan: page.grey }))));
    files.push(path);
  }
  const total = SCAN_FILES * SCAN_PAGES;
  // ocrmypdf lowers its own priority (nice 5); so does this side, for its threads and processes alike
  // (they inherit it when created), so that neither loses more to the rest of a busy machine.
  const priority = getPriority();
  setPriority(NICE);
  const settings = Object.assign(new DocumentsSettings(), {
    OCR_WORKERS: WORKERS,
    OCR_DOCUMENT_TIMEOUT_MS: 600_000,
  });
  const engine = new EmbeddedOcrEngine(settings);
  const sandbox = new ParseSandbox(settings);
  const extraction = new TextExtraction(settings, engine, {} as HttpOcrEngine, sandbox);
  const ours: string[] = [];
  let oursPpm: number;
  try {
    // Workers, sandbox processes and MuPDF made ready by a first round, not timed (as the program's below).
    const warm = pagesPdf([{ scan: truth[0][0].grey }]);
    await Promise.all(
      Array.from({ length: WORKERS }, () => extraction.extract(warm, '.pdf', 'application/pdf', 'en')),
    );
    const started = Date.now();
    await pool(files, WORKERS, async (path) => {
      const { text } = await extraction.extract(await readFile(path), '.pdf', 'application/pdf', 'en');
      ours[files.indexOf(path)] = text;
    });
    oursPpm = (total / (Date.now() - started)) * 60_000;
  } finally {
    await Promise.all([engine.onModuleDestroy(), sandbox.onModuleDestroy()]);
    setPriority(priority);
  }
  const oursCer = cer(truth, ours, false);
  console.log(
    `scanned PDFs, pipeline: ${SCAN_FILES} files × ${SCAN_PAGES} pages, ${WORKERS} workers, ` +
      `${fmt(oursPpm)} pages/min, CER ${fmt(oursCer * 100, 2)} %`,
  );
  if (!(await installed('ocrmypdf'))) {
    console.log('scanned PDFs, ocrmypdf: not installed (apt-get install ocrmypdf), comparison skipped');
    return;
  }
  const ocrmypdf = (path: string) =>
    run(
      'ocrmypdf',
      ['-q', '-j', '1', '-l', 'eng', '--output-type', 'none', '--sidecar', `${path}.txt`, path, '-'],
      { TESSDATA_PREFIX: dir },
    ).then(() => readFile(`${path}.txt`, 'utf8'));
  await ocrmypdf(files[0]);
  const theirs: string[] = [];
  const started = Date.now();
  await pool(files, WORKERS, async (path) => {
    theirs[files.indexOf(path)] = await ocrmypdf(path);
  });
  const theirPpm = (total / (Date.now() - started)) * 60_000;
  const theirCer = cer(truth, theirs, false);
  console.log(
    `scanned PDFs, ocrmypdf -j 1: ${SCAN_FILES} files × ${SCAN_PAGES} pages, ${WORKERS} at a time, ` +
      `${fmt(theirPpm)} pages/min, CER ${fmt(theirCer * 100, 2)} %`,
  );
  console.log(`scanned PDFs pages/min pipeline/ocrmypdf: ${fmt(oursPpm / theirPpm, 2)} (target >= 0.8)`);
}

export async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-pages-'));
  try {
    const models = await unpackModels(dir);
    const cli = await installed('tesseract');
    if (!cli)
      console.log(
        'cer: the tesseract program is not installed (apt-get install tesseract-ocr), embedded only',
      );
    if (CER_PAGES > 0) await benchCer(dir, models, cli);
    if (SCAN_FILES > 0 && SCAN_PAGES > 0) await benchThroughput(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
