import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensembleDown } from '../../../src/ensemble/service.js';
import { UsageError } from '../../../src/errors.js';
import { removeLabEntries } from '../../../src/lab/clear.js';
import { ownedLabDir } from '../../../src/lab/owned-dir.js';
import { LabPaths, namedLabDir, resolveLabDir } from '../../../src/lab/paths.js';

const base = mkdtempSync(join(tmpdir(), 'zklab-owned-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A directory of the user's: a file of theirs, and folders named as a lab's are. */
function usersDir(): string {
  const dir = mkdtempSync(join(base, 'user-'));
  writeFileSync(join(dir, 'notes.txt'), 'mine\n');
  mkdirSync(join(dir, 'logs'));
  writeFileSync(join(dir, 'logs', 'app.log'), 'mine too\n');
  return dir;
}

describe('the directory a lab made for one command goes in', () => {
  it('is the directory named when it does not exist yet', () => {
    const dir = join(base, 'absent', 'lab');
    expect(ownedLabDir(dir, 'zklab-drill')).toBe(dir);
    expect(existsSync(dir)).toBe(false);
  });

  it('is a new, empty directory under one that exists, which keeps what it held', () => {
    const dir = usersDir();
    const root = ownedLabDir(dir, 'zklab-drill');
    expect(dirname(root)).toBe(dir);
    expect(basename(root)).toMatch(/^zklab-drill-\w{6}$/);
    expect(readdirSync(root)).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual([basename(root), 'logs', 'notes.txt'].sort());
    expect(ownedLabDir(dir, 'zklab-drill')).not.toBe(root);
  });

  it('refuses a file', () => {
    const file = join(usersDir(), 'notes.txt');
    expect(() => ownedLabDir(file, 'zklab-drill')).toThrow(UsageError);
    expect(() => ownedLabDir(file, 'zklab-drill')).toThrow(/notes\.txt is not a directory/);
  });
});

describe('the directory the user names', () => {
  it('is --lab, else ZKLAB_LAB when set and not empty', () => {
    expect(namedLabDir('a', { ZKLAB_LAB: 'b' })).toBe('a');
    expect(namedLabDir(undefined, { ZKLAB_LAB: 'b' })).toBe('b');
    expect(namedLabDir(undefined, { ZKLAB_LAB: '' })).toBeUndefined();
    expect(namedLabDir(undefined, {})).toBeUndefined();
    expect(resolveLabDir(undefined, { ZKLAB_LAB: '' }, '/work')).toBe('/work/.zklab');
  });
});

describe('purging a directory without a lab state', () => {
  it('deletes only what a lab makes, and the directory only when nothing else is left', async () => {
    const dir = usersDir();
    const paths = new LabPaths(dir);
    for (const d of [paths.confDir, paths.dataDir, paths.eventsDir]) mkdirSync(d);
    writeFileSync(paths.lockFile, '');
    await ensembleDown(paths, { purge: true });
    expect(readdirSync(dir).sort()).toEqual(['notes.txt']);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine\n');

    const lab = new LabPaths(mkdtempSync(join(base, 'lab-')));
    mkdirSync(lab.confDir);
    writeFileSync(lab.lockFile, '');
    removeLabEntries(lab);
    expect(existsSync(lab.root)).toBe(false);
  });
});
