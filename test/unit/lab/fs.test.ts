import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tailFile } from '../../../src/lab/fs.js';

describe('tailFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zklab-fs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the last lines of a log larger than the bytes it reads, skipping empty lines', () => {
    const file = join(dir, 'big.log');
    writeFileSync(file, `${Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join('\n')}\n\n`);
    expect(tailFile(file, 3, 1024)).toBe('line 19997\nline 19998\nline 19999');
  });

  it('gives a short log whole, and "(no log)" for a missing one', () => {
    const file = join(dir, 'short.log');
    writeFileSync(file, 'a\nb\n');
    expect(tailFile(file, 5)).toBe('a\nb');
    expect(tailFile(join(dir, 'missing.log'))).toBe('(no log)');
  });
});
