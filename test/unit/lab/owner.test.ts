import { execa } from 'execa';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LabPaths } from '../../../src/lab/paths.js';
import { findMarked, stopProcesses } from '../../../src/lab/node/procs.js';
import { PACKAGE_ROOT } from '../../../src/templates.js';
import { waitFor } from '../../helpers/wait.js';

/**
 * The lease without ZooKeeper: an owner process binds a lab holding a stand-in lab process (anything carrying the
 * lab's marker). Facts are read from /proc (markers) and the file system, not from what the lease says.
 */
let dir: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'zklab-owner-'));
  env = { ...process.env, ZKLAB_REGISTRY: join(dir, 'registry') };
});

afterEach(async () => {
  await stopProcesses(findMarked([`--zklab-lab=${dir}`, `--zklab-warden=${dir}`], true), 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** An owner: binds the lab, starts a marked stand-in, says "ready", then releases on "release" or waits to be killed. */
function owner(paths: LabPaths) {
  const script = `
    const { ownLab } = await import(${JSON.stringify(join(PACKAGE_ROOT, 'dist', 'lab', 'owner.js'))});
    const { spawn } = await import('node:child_process');
    const { LabPaths } = await import(${JSON.stringify(join(PACKAGE_ROOT, 'dist', 'lab', 'paths.js'))});
    const paths = new LabPaths(${JSON.stringify(paths.root)});
    const lease = ownLab(paths, { command: 'test', removeDir: true });
    spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', paths.nodeMarker], { detached: true, stdio: 'ignore' }).unref();
    console.log('ready');
    process.stdin.on('data', () => { lease.release(); process.exit(0); });
  `;
  return execa(process.execPath, ['--input-type=module', '-e', script], { env, reject: false, stdin: 'pipe' });
}

/** A lab directory with a state file, bound to a running owner, once its stand-in and its warden run. */
async function boundLab() {
  const paths = new LabPaths(join(dir, 'lab'));
  mkdirSync(paths.root);
  writeFileSync(paths.stateFile, '{}');
  const o = owner(paths);
  await waitFor(
    () => findMarked([paths.nodeMarker]).length === 1 && findMarked([paths.wardenMarker]).length === 1,
    'the stand-in and the warden',
  );
  return { paths, o };
}

describe('a lab bound to its owner', () => {
  it('is cleared when the owner is SIGKILLed: its processes stopped, its directory removed, its entry forgotten', async () => {
    const { paths, o } = await boundLab();
    o.kill('SIGKILL');
    await o;
    await waitFor(
      () => findMarked([paths.nodeMarker, paths.wardenMarker]).length === 0,
      'the lab and its warden gone',
      5000,
    );
    expect(existsSync(paths.root)).toBe(false);
    expect(
      (await execa(process.execPath, [join(PACKAGE_ROOT, 'bin', 'zklab.js'), 'labs', '--json'], { env })).stdout,
    ).toBe('[]');
  });

  it('is left alone when the owner releases it: the warden leaves without touching what runs there now', async () => {
    const { paths, o } = await boundLab();
    // The stand-in plays the next owner's process in the same directory.
    o.stdin!.write('release\n');
    await o;
    await waitFor(() => findMarked([paths.wardenMarker]).length === 0, 'the warden gone', 5000);
    expect(findMarked([paths.nodeMarker])).toHaveLength(1);
    expect(existsSync(paths.stateFile)).toBe(true);
  });
});
