import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/templates.js';

/** The formatter keeps code within 120 columns but cannot break a string: long messages are split by hand. */
const MAX = 140;
const SRC = join(PACKAGE_ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.(tsx?|java|py)$/.test(name) ? [p] : [];
  });
}

describe('line length', () => {
  it(`no line of src/ is longer than ${MAX} characters`, () => {
    const long: string[] = [];
    for (const file of sourceFiles(SRC)) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (line.length > MAX) long.push(`${relative(SRC, file)}:${i + 1} (${line.length})`);
        });
    }
    expect(long).toEqual([]);
  });
});
