import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Tesseract from 'tesseract.js';
import { DocumentsSettings } from '../documents.settings';
import { tesseractCode } from './languages';
import { OcrEngine, OcrResult, OcrServiceStatus } from './ocr-engine';

/**
 * Languages whose data ships with the application. OCR_MODEL `fast` (default): Tesseract's "fast" LSTM
 * models (vendor/tessdata-fast), the ones the `tesseract` program uses on Debian. `best` (English and
 * French only): the @tesseract.js-data npm packages' integerized "best" network (about 3.7 times as
 * many weights), which read the bench's pages no better at about 0.6 of the speed.
 */
const BUNDLED = new Set(['eng', 'fra', 'deu', 'chi_sim', 'jpn', 'kor']);
const BEST_PACKAGES = new Set(['eng', 'fra']);
const FAST_PACKAGE = '@svc-platform/tessdata-fast/package.json';
/**
 * Page segmentation per Tesseract model: automatic (PSM 3, columns and separate blocks) unless listed.
 * Korean: Tesseract's automatic layout analysis merges neighbouring lines of Hangul set at 11 pt on a
 * 300-dpi page (both this engine and the `tesseract` program read about a quarter of the characters
 * wrong there, whatever the model), while a single column of text (PSM 4) reads every size measured
 * (9 to 14 pt) without that loss; Korean pages are read as one column, so two columns side by side are
 * read line by line across both (see docs/documents.md).
 */
const PAGE_SEGMENTATION: Record<string, Tesseract.PSM> = { kor: Tesseract.PSM.SINGLE_COLUMN };
export const pageSegmentation = (lang: string): Tesseract.PSM =>
  PAGE_SEGMENTATION[lang] ?? Tesseract.PSM.AUTO;
/**
 * Tesseract parameters per model beyond page segmentation, for the program's `-c` as well (the bench).
 * Japanese: no noise removal. That step of layout analysis takes small outlines for diacritics or noise
 * and hands them to neighbouring blobs (on a page of Japanese it "detects" hundreds of diacritics:
 * dakuten, the small strokes of kanji, 、 and 。), and on 11-pt text at 300 dpi it joined neighbouring
 * lines into one, which then read as garbage: 49 of 870 characters wrong on one page, in this engine
 * and in the `tesseract` program alike; without it, 2 (see docs/benchmarks.md).
 */
const PARAMETERS: Record<string, Record<string, string>> = { jpn: { enable_noise_removal: '0' } };
export const modelParameters = (lang: string): Record<string, string> => PARAMETERS[lang] ?? {};

const bestFolder = (lang: string) =>
  join(dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`)), '4.0.0_best_int');

interface Pool {
  idle: Tesseract.Worker[];
  waiting: ((worker: Tesseract.Worker) => void)[];
  ready: Promise<void>;
  /** Workers of the pool out reading a page. */
  busy: number;
  /** Ends the pool once all its workers have been idle for OCR_LANGUAGE_IDLE_MS. */
  idleTimer?: NodeJS.Timeout;
}

/**
 * tesseract.js in worker threads: per language a pool of OCR_WORKERS workers, created when the language
 * is first needed and ended when all of them have been idle for OCR_LANGUAGE_IDLE_MS, so a process
 * holds the models (tens of MB of WebAssembly memory per worker) of the languages it reads lately,
 * not of all six. Every worker has an error handler, so an image Tesseract cannot decode rejects its job
 * instead of raising an uncaught error in the process; such a worker is replaced, as is one whose
 * reading is aborted (the document's time limit): ending its thread is the only way to stop it.
 */
@Injectable()
export class EmbeddedOcrEngine implements OcrEngine, OnModuleDestroy {
  readonly name = 'embedded' as const;
  private readonly logger = new Logger(EmbeddedOcrEngine.name);
  private readonly pools = new Map<string, Pool>();
  private readonly all = new Set<Tesseract.Worker>();

  constructor(private readonly settings: DocumentsSettings) {}

  status(): Promise<OcrServiceStatus> {
    return Promise.resolve({ available: true, url: null, version: `tesseract.js ${tesseractVersion()}` });
  }

  async recognize(
    content: Buffer,
    _mime: string,
    language: string,
    signal?: AbortSignal,
  ): Promise<OcrResult> {
    const lang = tesseractCode(language);
    const worker = await this.take(lang);
    let healthy = true;
    try {
      const { data } = await abortable(worker.recognize(content), signal);
      return {
        text: data.text ?? '',
        confidence: Math.max(0, Math.min(1, (data.confidence ?? 0) / 100)),
        pages: 1,
      };
    } catch (err) {
      healthy = false;
      if (signal?.aborted) throw err;
      throw new Error(`Image could not be read: ${errorText(err)}`);
    } finally {
      if (healthy) this.give(lang, worker);
      else this.replace(lang, worker);
      this.release(lang);
    }
  }

  /** Languages whose workers are alive (for tests and the bench). */
  loadedLanguages(): string[] {
    return [...this.pools.keys()];
  }

  async onModuleDestroy() {
    for (const pool of this.pools.values()) clearTimeout(pool.idleTimer);
    await Promise.allSettled([...this.all].map((w) => w.terminate()));
    this.all.clear();
    this.pools.clear();
  }

  /** Folder holding `<lang>.traineddata.gz`: the bundled models (OCR_MODEL), else OCR_LANG_PATH. */
  private langPath(lang: string): string {
    if (BUNDLED.has(lang)) {
      return this.settings.OCR_MODEL === 'best' && BEST_PACKAGES.has(lang)
        ? bestFolder(lang)
        : dirname(require.resolve(FAST_PACKAGE));
    }
    const folder = this.settings.OCR_LANG_PATH;
    if (
      folder &&
      (existsSync(join(folder, `${lang}.traineddata.gz`)) || existsSync(join(folder, `${lang}.traineddata`)))
    ) {
      return folder;
    }
    throw new Error(`Language data not installed: ${lang} (put ${lang}.traineddata.gz in OCR_LANG_PATH)`);
  }

  private async createWorker(lang: string): Promise<Tesseract.Worker> {
    const langPath = this.langPath(lang);
    const gzip = existsSync(join(langPath, `${lang}.traineddata.gz`));
    const worker = await Tesseract.createWorker(lang, Tesseract.OEM.LSTM_ONLY, {
      langPath,
      gzip,
      cacheMethod: 'none',
      errorHandler: (err: unknown) => this.logger.warn(`Tesseract worker (${lang}): ${errorText(err)}`),
    });
    this.all.add(worker);
    // The library's API defaults to a single block of text; the command-line program analyses the
    // page layout (columns, separate blocks), which real scans need.
    await worker.setParameters({ tessedit_pageseg_mode: pageSegmentation(lang), ...modelParameters(lang) });
    return worker;
  }

  private pool(lang: string): Pool {
    const pool = this.pools.get(lang);
    if (pool) return pool;
    const created: Pool = { idle: [], waiting: [], ready: Promise.resolve(), busy: 0 };
    created.ready = Promise.all(
      Array.from({ length: this.settings.OCR_WORKERS }, () => this.createWorker(lang)),
    ).then(
      (workers) => void created.idle.push(...workers),
      (err: Error) => {
        this.pools.delete(lang);
        throw err;
      },
    );
    this.pools.set(lang, created);
    return created;
  }

  private async take(lang: string): Promise<Tesseract.Worker> {
    const pool = this.pool(lang);
    pool.busy++;
    clearTimeout(pool.idleTimer);
    try {
      await pool.ready;
    } catch (err) {
      pool.busy--;
      throw err;
    }
    const worker = pool.idle.pop();
    if (worker) return worker;
    return new Promise((resolve) => pool.waiting.push(resolve));
  }

  private give(lang: string, worker: Tesseract.Worker) {
    const pool = this.pools.get(lang);
    if (!pool) return void this.end(worker);
    const next = pool.waiting.shift();
    if (next) next(worker);
    else pool.idle.push(worker);
  }

  /** The end of a `take`: when no reading of the language is left, its workers start idling. */
  private release(lang: string) {
    const pool = this.pools.get(lang);
    if (pool && --pool.busy === 0) this.endWhenIdle(lang, pool);
  }

  /** A worker that failed may be in a broken state: end it and put a fresh one in its place. */
  private replace(lang: string, worker: Tesseract.Worker) {
    this.end(worker);
    this.createWorker(lang).then(
      (fresh) => this.give(lang, fresh),
      (err: Error) => this.logger.error(`Could not replace a Tesseract worker: ${err.message}`),
    );
  }

  private endWhenIdle(lang: string, pool: Pool) {
    clearTimeout(pool.idleTimer);
    pool.idleTimer = setTimeout(() => {
      if (pool.busy > 0 || this.pools.get(lang) !== pool) return;
      this.pools.delete(lang);
      pool.idle.splice(0).forEach((worker) => this.end(worker));
    }, this.settings.OCR_LANGUAGE_IDLE_MS);
    pool.idleTimer.unref();
  }

  private end(worker: Tesseract.Worker) {
    this.all.delete(worker);
    void worker.terminate().catch(() => undefined);
  }
}

/** The promise, or a rejection as soon as `signal` aborts. */
function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  return typeof err === 'string' ? err : JSON.stringify(err);
}

function tesseractVersion(): string {
  try {
    const pkg = join(dirname(require.resolve('tesseract.js')), '..', 'package.json');
    return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
