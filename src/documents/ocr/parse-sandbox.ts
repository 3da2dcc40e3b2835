import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { extname, join } from 'node:path';
import { pool, TerminateError } from 'workerpool';
import { DocumentsSettings } from '../documents.settings';
import { ParsedText } from './document-parsers';
import { InputLimits } from './input-limits';
import { RenderedPage } from './page-renderer';
import { recycleOverBudget } from './sandbox-recycling';

type Pool = ReturnType<typeof pool>;

const SOURCE_EXT = extname(__filename);
const WORKER = join(__dirname, `parse-worker${SOURCE_EXT}`);
/** Run from the TypeScript sources (the tests), the processes load the worker through sucrase's hook. */
const SOURCE_HOOK = SOURCE_EXT === '.ts' ? ['--require', require.resolve('sucrase/register/ts')] : [];

/**
 * PDF, DOCX, DOC and TIFF parsing, and the rendering of scanned pages, in child processes, OCR_WORKERS at a time, each with its heap capped at
 * OCR_SANDBOX_MEMORY_MB. Processes rather than threads: V8 may end the whole process, not just the
 * thread, when a worker thread runs out of heap. A process that reaches the cap dies, one whose task
 * is aborted (the document's time limit) is killed, and the pool starts another. A process whose
 * resident memory is above OCR_SANDBOX_MEMORY_MB after a task is replaced before its next one.
 */
@Injectable()
export class ParseSandbox implements OnModuleDestroy {
  private processes?: Pool;
  /** Replaces, soon, an idle process over OCR_SANDBOX_MEMORY_MB (see sandbox-recycling.ts). */
  private recycle = () => {};

  constructor(private readonly settings: DocumentsSettings) {}

  parse(content: Buffer, ext: string, limits: InputLimits, signal: AbortSignal): Promise<ParsedText> {
    return this.run<ParsedText>('parse', [content, ext, limits], signal);
  }

  /** Page `index` (0-based) of a PDF or TIFF as a grey image (see page-renderer.ts). */
  render(
    content: Buffer,
    ext: string,
    index: number,
    limits: InputLimits,
    signal: AbortSignal,
  ): Promise<RenderedPage> {
    return this.run<RenderedPage>('render', [content, ext, index, limits], signal);
  }

  private async run<T>(method: string, args: unknown[], signal: AbortSignal): Promise<T> {
    if (signal.aborted) throw signal.reason;
    const task = this.pool().exec(method, args);
    // No return value: EventTarget reports a listener's rejected promise as an uncaught error.
    const cancel = () => void task.cancel();
    signal.addEventListener('abort', cancel, { once: true });
    try {
      return (await task) as T;
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      throw this.explain(err as Error);
    } finally {
      signal.removeEventListener('abort', cancel);
      this.recycle();
    }
  }

  async onModuleDestroy() {
    await this.processes?.terminate(true);
    this.processes = undefined;
  }

  /** Created on the first document, so a process that parses nothing starts no child. */
  private pool(): Pool {
    if (this.processes) return this.processes;
    this.processes = pool(WORKER, {
      workerType: 'process',
      minWorkers: 1,
      maxWorkers: this.settings.OCR_WORKERS,
      // Piped and dropped: the parsers' warnings and V8's last words; the errorMessage says why.
      emitStdStreams: true,
      // A cancelled task's process is killed at once, not given time to clean up: it is busy parsing.
      workerTerminateTimeout: 1,
      forkOpts: {
        serialization: 'advanced',
        execArgv: [...SOURCE_HOOK, `--max-old-space-size=${this.settings.OCR_SANDBOX_MEMORY_MB}`],
      },
    });
    this.recycle = recycleOverBudget(this.processes, this.settings.OCR_SANDBOX_MEMORY_MB * 2 ** 20);
    return this.processes;
  }

  /** A process that died: V8 aborts (SIGABRT) when the heap cap is reached. */
  private explain(err: Error): Error {
    if (!(err instanceof TerminateError)) return err;
    if (/signalCode: `SIGABRT`/.test(err.message)) {
      return new Error(
        `Reading the document needed more than ${this.settings.OCR_SANDBOX_MEMORY_MB} MB of memory ` +
          '(OCR_SANDBOX_MEMORY_MB)',
      );
    }
    return new Error(
      `The process reading the document ended unexpectedly (${err.message.split('\n')[1]?.trim()})`,
    );
  }
}
