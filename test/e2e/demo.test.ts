import { execa } from 'execa';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DemoLab } from '../../src/demo/demo-lab.js';
import { describe, expect, it } from 'vitest';
import { LabPaths } from '../../src/lab/paths.js';
import { findMarked } from '../../src/lab/node/procs.js';
import { emptyState, writeState } from '../../src/lab/state.js';
import { ZKLAB_BIN, zklab } from '../helpers/cli.js';
import { tempDir } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';

/** `zklab demo` without a terminal (CI): it runs to completion by itself and leaves nothing behind. */

function expectNothingLeft(lab: string): void {
  expect(findMarked(new LabPaths(lab).markers)).toEqual([]);
  expect(existsSync(lab)).toBe(false);
}

describe('zklab demo in CI', () => {
  it('runs by itself, prints the measured failover confirmed by ZooKeeper, exits 0 and cleans up', async () => {
    // ZKLAB_LAB names a directory of the user's: the demo's lab goes in a new directory under it, and only that goes.
    const named = tempDir();
    writeFileSync(`${named}/notes.txt`, 'mine\n');
    const started = Date.now();
    const r = await zklab(['demo'], { env: { CI: 'true', ZKLAB_LAB: named }, timeoutMs: 90_000 });
    const took = Date.now() - started;
    expect(r.exitCode, r.stderr).toBe(0);
    expect(took).toBeLessThan(60_000);
    // Prose wraps at word boundaries within 100 columns; continuation lines are indented.
    for (const line of r.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
    const stdout = r.stdout.replace(/\n {3,}/g, ' ');
    expect(stdout).toMatch(/ensemble up in [\d.]+m?s: zk1 \w+, zk2 \w+, zk3 \w+/);
    expect(stdout).toMatch(/spawned c1, c2, c3, c4, c5: predecessor recipe/);
    expect(stdout).toMatch(/c1 leads: ZooKeeper says its session 0x[0-9a-f]+ owns \/election\//);
    // The plain view: the election tree as inspect draws it, before and after.
    expect(stdout).toMatch(/c5 → c4 → c3 → c2 → c1★/);
    expect(stdout).toMatch(/c5 → c4 → c3 → c2★/);
    expect(stdout).toMatch(/killed the leader c1 \(pid \d+\) with SIGKILL/);
    const m =
      /failover: c2 leads ([\d.]+)(ms|s) after c1 was killed .*ZooKeeper confirms: c2's session 0x[0-9a-f]+ owns the leading znode \/election\/\S+-n_0000000001/.exec(
        stdout,
      );
    expect(m, stdout).not.toBeNull();
    const ms = Number(m![1]) * (m![2] === 's' ? 1000 : 1);
    // A SIGKILLed leader's znode goes when its 2 s session expires: the failover cannot be much faster than that.
    expect(ms).toBeGreaterThan(1000);
    expect(ms).toBeLessThan(10_000);
    expect(stdout).toMatch(/cleaned up: stopped \d+ process\(es\) .*none is left; lab removed/);
    const lab = new RegExp(`lab (${named}/zklab-demo-\\w{6})`).exec(stdout)?.[1];
    expect(lab, stdout).toBeDefined();
    expectNothingLeft(lab!);
    expect(readdirSync(named)).toEqual(['notes.txt']);
    expect(readFileSync(`${named}/notes.txt`, 'utf8')).toBe('mine\n');
  }, 120_000);

  it('cleans up on Ctrl-C', async () => {
    const lab = `${tempDir()}/demo`;
    const child = execa(process.execPath, [ZKLAB_BIN, 'demo', '--lab', lab], {
      env: { CI: 'true', FORCE_COLOR: '0' },
      reject: false,
      stdin: 'ignore',
      timeout: 90_000,
    });
    let out = '';
    child.stdout?.on('data', (b: Buffer) => (out += b.toString()));
    await waitFor(() => /spawned c1/.test(out), 'the demo to spawn its contenders', 60_000);
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toMatch(/interrupted; what this command started has been stopped/);
    expectNothingLeft(lab);
  }, 120_000);

  it('beside a lab that is not a demo lab, takes a directory of its own under it, touching the other', () => {
    const paths = new LabPaths(`${tempDir()}/lab`);
    writeState(paths, emptyState());
    const placed = DemoLab.place(paths.root);
    expect(dirname(placed.root)).toBe(paths.root);
    expect(readdirSync(placed.root)).toEqual([]);
    expect(existsSync(paths.stateFile)).toBe(true);
  });
});
