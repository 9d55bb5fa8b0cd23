import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

export interface TailRead {
  /** Complete lines appended since the last read. */
  readonly lines: readonly string[];
  /** The file shrank or vanished (a purged lab): what was read before no longer stands. */
  readonly reset: boolean;
}

const NOTHING: TailRead = { lines: [], reset: false };
const CHUNK = 64 * 1024;

/**
 * Follows an append-only file by size: a stat per call, a read only when it grew. A line still being written
 * (no newline yet) waits for the next call.
 */
export class FileTail {
  private offset = 0;
  private partial = '';
  private decoder = new StringDecoder('utf8');

  constructor(readonly file: string) {}

  read(): TailRead {
    let size: number;
    try {
      size = statSync(this.file).size;
    } catch {
      return this.offset > 0 ? this.restart() : NOTHING;
    }
    if (size < this.offset) return { lines: this.restart().lines.concat(this.read().lines), reset: true };
    if (size === this.offset) return NOTHING;
    const text = this.readFrom(this.offset, size);
    const all = this.partial + text;
    const cut = all.lastIndexOf('\n');
    this.partial = cut < 0 ? all : all.slice(cut + 1);
    const lines =
      cut < 0
        ? []
        : all
            .slice(0, cut)
            .split('\n')
            .filter((l) => l.trim() !== '');
    return { lines, reset: false };
  }

  private restart(): TailRead {
    this.offset = 0;
    this.partial = '';
    this.decoder = new StringDecoder('utf8');
    return { lines: [], reset: true };
  }

  private readFrom(start: number, end: number): string {
    const fd = openSync(this.file, 'r');
    try {
      let text = '';
      const buf = Buffer.alloc(Math.min(CHUNK, end - start));
      let pos = start;
      while (pos < end) {
        const n = readSync(fd, buf, 0, Math.min(buf.length, end - pos), pos);
        if (n <= 0) break;
        text += this.decoder.write(buf.subarray(0, n));
        pos += n;
      }
      this.offset = pos;
      return text;
    } finally {
      closeSync(fd);
    }
  }
}
