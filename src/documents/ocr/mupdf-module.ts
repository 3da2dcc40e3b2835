// Types only: the package's types are reached through its `exports`, which this build's resolution skips.
import type * as MuPdf from 'mupdf/dist/mupdf';

let loading: Promise<typeof MuPdf> | undefined;
// mupdf is an ES module with top-level await, which require() cannot load; an import() written in
// TypeScript becomes a require() in the CommonJS build, so this one is built at run time.
// eslint-disable-next-line @typescript-eslint/no-implied-eval
const importModule = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<unknown>;

/** MuPDF's WebAssembly build, loaded (and compiled) on the first PDF a process reads. */
export function mupdf(): Promise<typeof MuPdf> {
  return (loading ??= importModule('mupdf') as Promise<typeof MuPdf>);
}
