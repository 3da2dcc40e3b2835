import { Inflate, Unzlib } from 'fflate';
import { constants, inflateRawSync, inflateSync } from 'node:zlib';

/**
 * Bounded decoders of the PDF stream filters that expand data (and of the raw deflate of zip
 * entries). Each hands its output on piece by piece to a counter, which throws once the budget is
 * passed, and decoding stops there. LZW, RunLength, ASCII85 and ASCIIHex hold one piece at a time;
 * inflate holds at most what is left of the budget (see `inflate`).
 */
export interface Decoder {
  push(chunk: Uint8Array): void;
  end(): void;
}

type Sink = (chunk: Uint8Array) => void;

/** Input is fed in slices this small, so that one push yields at most about 1000 times as much. */
const SLICE = 4 * 1024;
/** Output of the hand-written decoders is handed on in pieces of this size. */
const PIECE = 64 * 1024;

class OverBudget extends Error {}

/** A running count of decoded bytes that throws `error()` once past `max`. */
export class DecodeBudget {
  private used = 0;
  constructor(
    private readonly max: number,
    private readonly error: () => Error,
  ) {}

  count(bytes: number): void {
    this.used += bytes;
    if (this.used > this.max) this.exceeded();
  }

  left(): number {
    return this.max - this.used;
  }

  exceeded(): never {
    throw new OverBudget(this.error().message);
  }
}

/** Feeds `data` to `decoder` slice by slice. */
export function feed(decoder: Decoder, data: Uint8Array): void {
  for (let at = 0; at < data.length; at += SLICE) decoder.push(data.subarray(at, at + SLICE));
}

/** Collects bytes and hands them on in PIECE-sized pieces. */
class Output {
  private buffer = new Uint8Array(PIECE);
  private length = 0;
  constructor(private readonly sink: Sink) {}

  byte(b: number) {
    this.buffer[this.length++] = b;
    if (this.length === PIECE) this.flush();
  }

  /** Room for `n` bytes (at most PIECE): the buffer and where they go. */
  reserve(n: number): [Uint8Array, number] {
    if (this.length + n > PIECE) this.flush();
    this.length += n;
    return [this.buffer, this.length - n];
  }

  flush() {
    if (!this.length) return;
    this.sink(this.buffer.slice(0, this.length));
    this.length = 0;
  }
}

const fflateDecoder = (stream: Inflate | Unzlib, sink: Sink): Decoder => {
  stream.ondata = (chunk) => sink(chunk);
  return { push: (chunk) => stream.push(chunk), end: () => stream.push(new Uint8Array(0), true) };
};

/**
 * Inflate (zlib-wrapped, or raw for zip entries): zlib's own inflate, three times as fast as fflate's,
 * stopped by zlib as soon as its output passes what is left of the budget (it decodes in pieces and
 * counts them), so at most that much is held. Data zlib refuses part way (corrupt after a good start,
 * which a lenient parser may still decode up to the fault) is read again by fflate's streaming
 * inflate, whose every piece is counted up to the fault.
 */
function inflate(sink: Sink, budget: DecodeBudget, raw: boolean): Decoder {
  const input: Uint8Array[] = [];
  return {
    push: (chunk) => void input.push(chunk),
    end() {
      const data = Buffer.concat(input);
      const options = {
        maxOutputLength: Math.max(1, budget.left() + 1),
        finishFlush: constants.Z_SYNC_FLUSH,
        chunkSize: 256 * 1024,
      };
      let output: Buffer;
      try {
        output = raw ? inflateRawSync(data, options) : inflateSync(data, options);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') budget.exceeded();
        const streaming = fflateDecoder(raw ? new Inflate() : new Unzlib(), sink);
        feed(streaming, data);
        streaming.end();
        return;
      }
      sink(output);
    },
  };
}

export const rawInflate = (sink: Sink, budget: DecodeBudget): Decoder => inflate(sink, budget, true);
const flate = (sink: Sink, _filter: Filter, budget: DecodeBudget): Decoder => inflate(sink, budget, false);

/**
 * LZWDecode: codes of 9 to 12 bits, 256 clears the table, 257 ends the data. The table's strings are
 * kept one after the other (each is an earlier one plus a byte: at most about 7 MiB for a full
 * table), so a code is written out with one copy.
 */
function lzw(sink: Sink, earlyChange: boolean): Decoder {
  const out = new Output(sink);
  const offset = new Uint32Array(4096);
  const size = new Uint16Array(4096);
  let strings = new Uint8Array(PIECE);
  let stored = 256;
  let next = 258;
  let width = 9;
  let previous = -1;
  let bits = 0;
  let bitCount = 0;
  let ended = false;
  for (let c = 0; c < 256; c++) [strings[c], offset[c], size[c]] = [c, c, 1];
  const emit = (code: number) => {
    const [buffer, at] = out.reserve(size[code]);
    buffer.set(strings.subarray(offset[code], offset[code] + size[code]), at);
  };
  /** Adds the previous code's string followed by `byte` as the next code. */
  const add = (byte: number) => {
    const length = size[previous] + 1;
    if (stored + length > strings.length) {
      const larger = new Uint8Array(strings.length * 2);
      larger.set(strings.subarray(0, stored));
      strings = larger;
    }
    strings.copyWithin(stored, offset[previous], offset[previous] + length - 1);
    strings[stored + length - 1] = byte;
    [offset[next], size[next]] = [stored, length];
    stored += length;
    next++;
  };
  const code = (c: number) => {
    if (c === 256) {
      [next, width, previous, stored] = [258, 9, -1, 256];
      return;
    }
    if (c === 257) {
      ended = true;
      return;
    }
    if (previous < 0) {
      if (c > 255) throw new Error('LZW data starts with an unknown code');
      emit(c);
      previous = c;
      return;
    }
    if (c > next || (c === next && next >= 4096)) throw new Error('LZW code out of range');
    // A code not yet in the table is the one being added: the previous string and its first byte.
    if (next < 4096) add(strings[offset[c < next ? c : previous]]);
    emit(c);
    previous = c;
    const limit = next + (earlyChange ? 1 : 0);
    width = limit >= 2048 ? 12 : limit >= 1024 ? 11 : limit >= 512 ? 10 : 9;
  };
  return {
    push(chunk) {
      for (let i = 0; i < chunk.length && !ended; i++) {
        bits = ((bits << 8) | chunk[i]) & 0xffffff;
        bitCount += 8;
        while (bitCount >= width && !ended) {
          bitCount -= width;
          code((bits >> bitCount) & ((1 << width) - 1));
        }
      }
      out.flush();
    },
    end: () => out.flush(),
  };
}

/** RunLengthDecode: a length byte, then that many + 1 bytes, or one byte repeated 257 - length times. */
function runLength(sink: Sink): Decoder {
  const out = new Output(sink);
  let literal = 0;
  let repeat = 0;
  let ended = false;
  return {
    push(chunk) {
      for (let i = 0; i < chunk.length && !ended; i++) {
        const b = chunk[i];
        if (literal) {
          out.byte(b);
          literal--;
        } else if (repeat) {
          const [buffer, at] = out.reserve(repeat);
          buffer.fill(b, at, at + repeat);
          repeat = 0;
        } else if (b < 128) literal = b + 1;
        else if (b > 128) repeat = 257 - b;
        else ended = true;
      }
      out.flush();
    },
    end: () => out.flush(),
  };
}

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0x0c || b === 0;

/** ASCIIHexDecode: pairs of hex digits, white space skipped, `>` ends the data. */
function asciiHex(sink: Sink): Decoder {
  const out = new Output(sink);
  let high = -1;
  let ended = false;
  const digit = (b: number) =>
    b >= 0x30 && b <= 0x39
      ? b - 0x30
      : b >= 0x41 && b <= 0x46
        ? b - 0x37
        : b >= 0x61 && b <= 0x66
          ? b - 0x57
          : -1;
  return {
    push(chunk) {
      for (let i = 0; i < chunk.length && !ended; i++) {
        if (chunk[i] === 0x3e) ended = true;
        const d = digit(chunk[i]);
        if (d < 0) continue;
        if (high < 0) {
          high = d;
        } else {
          out.byte((high << 4) | d);
          high = -1;
        }
      }
      out.flush();
    },
    end() {
      if (high >= 0) out.byte(high << 4);
      out.flush();
    },
  };
}

/** ASCII85Decode: groups of five characters for four bytes, `z` for four zeros, `~>` ends the data. */
function ascii85(sink: Sink): Decoder {
  const out = new Output(sink);
  const group: number[] = [];
  let ended = false;
  const flushGroup = () => {
    if (!group.length) return;
    const n = group.length;
    while (group.length < 5) group.push(84);
    const value = group.reduce((v, d) => v * 85 + d, 0);
    for (let k = 0; k < n - 1; k++) out.byte(Math.floor(value / 256 ** (3 - k)) & 0xff);
    group.length = 0;
  };
  return {
    push(chunk) {
      for (let i = 0; i < chunk.length && !ended; i++) {
        const b = chunk[i];
        if (b === 0x7e) {
          flushGroup();
          ended = true;
        } else if (b === 0x7a && !group.length) for (let k = 0; k < 4; k++) out.byte(0);
        else if (b >= 0x21 && b <= 0x75) {
          group.push(b - 0x21);
          if (group.length === 5) flushGroup();
        } else if (!isSpace(b)) throw new Error('Invalid character in ASCII85 data');
      }
      out.flush();
    },
    end() {
      flushGroup();
      out.flush();
    },
  };
}

/** A filter of a chain, by its full or (inline images) abbreviated name. */
export interface Filter {
  name: string;
  earlyChange?: boolean;
}

const DECODERS: Record<string, (sink: Sink, filter: Filter, budget: DecodeBudget) => Decoder> = {
  FlateDecode: flate,
  Fl: flate,
  LZWDecode: (sink, f) => lzw(sink, f.earlyChange ?? true),
  LZW: (sink, f) => lzw(sink, f.earlyChange ?? true),
  RunLengthDecode: runLength,
  RL: runLength,
  ASCII85Decode: ascii85,
  A85: ascii85,
  ASCIIHexDecode: asciiHex,
  AHx: asciiHex,
};

/**
 * Decodes `data` through its filter chain, every filter's output counted in `budget` as it comes,
 * and keeps none of it. The chain stops at a filter that does not expand text (an image codec);
 * data a filter cannot read counts for what it yielded before (the parser meets the same error).
 */
export function countDecoded(data: Uint8Array, filters: Filter[], budget: DecodeBudget): void {
  const known = filters.findIndex((f) => !DECODERS[f.name]);
  const chain = known < 0 ? filters : filters.slice(0, known);
  let downstream: Decoder = { push: () => undefined, end: () => undefined };
  const decoders: Decoder[] = [];
  for (const filter of [...chain].reverse()) {
    const next = downstream;
    downstream = DECODERS[filter.name](
      (chunk) => {
        budget.count(chunk.length);
        feed(next, chunk);
      },
      filter,
      budget,
    );
    decoders.unshift(downstream);
  }
  try {
    feed(downstream, data);
    for (const decoder of decoders) decoder.end();
  } catch (err) {
    if (err instanceof OverBudget) throw err;
  }
}
