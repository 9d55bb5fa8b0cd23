import { mkdirSync } from 'node:fs';
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
