import { closeSync, fstatSync, mkdirSync, openSync, readSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * mkdir -p without Node's recursive mode, which spins forever on paths under /proc (it keeps getting ENOENT).
 */
export function ensureDir(dir: string): void {
  try {
    mkdirSync(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code !== 'ENOENT' || dirname(dir) === dir) throw e;
    ensureDir(dirname(dir));
    try {
      mkdirSync(dir);
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code !== 'EEXIST') throw again;
    }
  }
}

/** The last `lines` lines of a log, for error messages. */
export function tailFile(file: string, lines = 15, maxBytes = 64 * 1024): string {
  try {
    const fd = openSync(file, 'r');
    let text: string;
    try {
      const size = fstatSync(fd).size;
      const buf = Buffer.alloc(Math.min(size, maxBytes));
      const n = readSync(fd, buf, 0, buf.length, size - buf.length);
      text = buf.subarray(0, n).toString('utf8');
    } finally {
      closeSync(fd);
    }
    return text
      .split('\n')
      .filter((l) => l.length > 0)
      .slice(-lines)
      .join('\n');
  } catch {
    return '(no log)';
  }
}
