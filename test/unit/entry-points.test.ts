import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTRY_POINTS, entryPoint } from '../../src/entry-points.js';
import { PACKAGE_ROOT } from '../../src/templates.js';

const SRC = join(PACKAGE_ROOT, 'src');
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });

describe('entry points', () => {
  it('each names a source file under src/, and is built to dist/ under the same name', () => {
    for (const name of ENTRY_POINTS) {
      expect(existsSync(join(SRC, `${name}.ts`)), name).toBe(true);
      expect(entryPoint(name)).toBe(join(PACKAGE_ROOT, 'dist', `${name}.js`));
    }
  });

  it('no other file of src/ builds a path into dist/ by hand', () => {
    const byHand = sources(SRC)
      .filter((f) => !f.endsWith('entry-points.ts'))
      .filter((f) => /join\([^)]*'dist'/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SRC, f));
    expect(byHand).toEqual([]);
  });
});
