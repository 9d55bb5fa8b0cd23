import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findIn, pathDirs } from '../../src/search-path.js';

describe('PATH search', () => {
  it('PATH in order, without its empty entries; no PATH, no directories', () => {
    expect(pathDirs({ PATH: '/a::/b:' })).toEqual(['/a', '/b']);
    expect(pathDirs({})).toEqual([]);
  });

  it('the first directory holding the program, or the first whose file passes the check', () => {
    const root = mkdtempSync(join(tmpdir(), 'zklab-path-'));
    const [a, b, c] = ['a', 'b', 'c'].map((d) => join(root, d));
    for (const d of [a, b, c]) mkdirSync(d!);
    writeFileSync(join(b!, 'tool'), '');
    writeFileSync(join(c!, 'tool'), '');
    expect(findIn([a!, b!, c!], 'tool')).toBe(join(b!, 'tool'));
    expect(findIn([a!, b!, c!], 'tool', (f) => f.startsWith(c!))).toBe(join(c!, 'tool'));
    expect(findIn([a!], 'tool')).toBeUndefined();
    rmSync(root, { recursive: true, force: true });
  });
});
