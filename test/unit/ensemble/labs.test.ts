import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listLabs, pruneLabs } from '../../../src/ensemble/labs.js';
import { LabPaths } from '../../../src/lab/paths.js';
import { processStartTime } from '../../../src/lab/node/procs.js';
import { readEntry, readRegistry, register, registerLongLived, registryDir } from '../../../src/lab/registry.js';

/** Registry entries judged against the machine (no lab processes run here, so nothing is killed). */
let dir: string;
let saved: string | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'zklab-registry-'));
  saved = process.env.ZKLAB_REGISTRY;
  process.env.ZKLAB_REGISTRY = join(dir, 'registry');
});

afterEach(() => {
  if (saved === undefined) delete process.env.ZKLAB_REGISTRY;
  else process.env.ZKLAB_REGISTRY = saved;
  rmSync(dir, { recursive: true, force: true });
});

/** A lab directory that exists (empty: nothing of it runs). */
const lab = (name: string) => {
  mkdirSync(join(dir, name));
  return new LabPaths(join(dir, name));
};
const myStart = () => processStartTime(process.pid)!;

describe('labs: what an entry says, checked', () => {
  it('an owned lab whose owner lives is running or down; one whose owner is gone is stale when nothing of it runs', () => {
    const mine = lab('mine');
    register(mine, { kind: 'owned', command: 'test', owner: { pid: process.pid, startTime: myStart() } });
    const gone = lab('gone');
    register(gone, { kind: 'owned', command: 'test', owner: { pid: process.pid, startTime: 'not-this-one' } });
    const byRoot = new Map(listLabs().map((l) => [l.root, l]));
    expect(byRoot.get(mine.root)).toMatchObject({ status: 'down', owner: { pid: process.pid, alive: true } });
    expect(byRoot.get(gone.root)).toMatchObject({ status: 'stale', owner: { alive: false } });
  });

  it('an entry from before a reboot is stale whatever its pids say', () => {
    const old = lab('old');
    register(old, { kind: 'long-lived', command: 'ensemble up' });
    // The entry as an earlier boot would have written it.
    const file = join(registryDir(), readdirSync(registryDir())[0]!);
    writeFileSync(
      file,
      JSON.stringify({ ...(JSON.parse(readFileSync(file, 'utf8')) as object), bootId: 'an-earlier-boot' }),
    );
    expect(listLabs()).toEqual([
      expect.objectContaining({
        root: old.root,
        status: 'stale',
        reason: 'it was made before the machine last started',
      }),
    ]);
  });

  it('a lab whose directory is gone is stale, and prune forgets exactly the stale ones', async () => {
    const vanished = new LabPaths(join(dir, 'vanished'));
    register(vanished, { kind: 'long-lived', command: 'ensemble up' });
    const mine = lab('mine');
    register(mine, { kind: 'owned', command: 'test', owner: { pid: process.pid, startTime: myStart() } });
    expect(listLabs().find((l) => l.root === vanished.root)).toMatchObject({
      status: 'stale',
      reason: 'its directory is gone',
    });
    expect((await pruneLabs()).map((l) => l.root)).toEqual([vanished.root]);
    expect(readRegistry().map((e) => e.root)).toEqual([mine.root]);
  });

  it("a live owner answers for its lab even before the lab's directory exists", () => {
    const early = new LabPaths(join(dir, 'not-yet'));
    register(early, { kind: 'owned', command: 'drill run x', owner: { pid: process.pid, startTime: myStart() } });
    expect(listLabs()).toEqual([expect.objectContaining({ root: early.root, status: 'down', reason: null })]);
  });

  it('a long-lived lab started where a dead owner left its entry replaces that entry, so it is never listed as stale', () => {
    const reused = lab('reused');
    register(reused, { kind: 'owned', command: 'demo', owner: { pid: process.pid, startTime: 'not-this-one' } });
    registerLongLived(reused, 'ensemble up');
    expect(readEntry(reused.root)).toMatchObject({ kind: 'long-lived', command: 'ensemble up' });
    const owned = lab('owned');
    register(owned, { kind: 'owned', command: 'demo', owner: { pid: process.pid, startTime: myStart() } });
    registerLongLived(owned, 'ensemble up');
    expect(readEntry(owned.root)).toMatchObject({ kind: 'owned', command: 'demo' });
  });
});
