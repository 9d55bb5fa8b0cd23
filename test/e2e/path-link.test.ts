import { execa } from 'execa';
import { lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/templates.js';
import { ZKLAB_BIN } from '../helpers/cli.js';
import { tempDir } from '../helpers/paths.js';

const LINK_SCRIPT = join(PACKAGE_ROOT, 'bin', 'link-zklab');

/** bin/link-zklab into `dir` (instead of /usr/local/bin or ~/.local/bin), with `dir` on the PATH or not. */
async function link(dir: string, onPath: boolean) {
  const PATH = onPath ? `${dir}:${process.env.PATH}` : (process.env.PATH ?? '');
  return execa(LINK_SCRIPT, [], { env: { ZKLAB_BIN_DIR: dir, PATH }, reject: false });
}

describe('bin/link-zklab: zklab on the PATH after bin/setup', () => {
  it('links zklab to bin/zklab.js, says so again on a second run, and the link runs from any directory', async () => {
    const dir = join(tempDir(), 'bin');
    const first = await link(dir, false);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(readlinkSync(join(dir, 'zklab'))).toBe(ZKLAB_BIN);
    expect(first.stdout).toMatch(/linked .*\/bin\/zklab -> .*\/bin\/zklab\.js$/);
    expect(first.stderr).toMatch(/is not on your PATH: add it/);

    const again = await link(dir, true);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/already linked/);
    expect(again.stderr).toBe('');

    // As a user would type it, from another directory.
    const r = await execa('zklab', ['--help'], {
      env: { PATH: `${dir}:${process.env.PATH}` },
      cwd: '/',
      reject: false,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^zklab: a ZooKeeper lab on one machine/);
    // The shim finds dist/ beside itself even when Node keeps the link's path as the main module's.
    const kept = await execa(process.execPath, ['--preserve-symlinks-main', join(dir, 'zklab'), '--help'], {
      cwd: '/',
      reject: false,
    });
    expect(kept.exitCode, kept.stderr).toBe(0);
  });

  it('replaces a stale link', async () => {
    const dir = tempDir();
    symlinkSync('/nonexistent/old-checkout/bin/zklab.js', join(dir, 'zklab'));
    const r = await link(dir, true);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\(was -> \/nonexistent\/old-checkout\/bin\/zklab\.js\)/);
    expect(readlinkSync(join(dir, 'zklab'))).toBe(ZKLAB_BIN);
  });

  it('never clobbers a file that is not a link, and says so', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'zklab'), '#!/bin/sh\necho mine\n');
    const r = await link(dir, true);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/not linking zklab: .*\/zklab exists and is not a link/);
    expect(lstatSync(join(dir, 'zklab')).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(dir, 'zklab'), 'utf8')).toBe('#!/bin/sh\necho mine\n');
  });

  it('does not link inside a directory that a link of that name points at', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'elsewhere'));
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'zklab'));
    const r = await link(dir, true);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readlinkSync(join(dir, 'zklab'))).toBe(ZKLAB_BIN);
  });
});
