import { stripVTControlCharacters } from 'node:util';
import { execa, type ResultPromise } from 'execa';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { LabPaths } from '../../src/lab/paths.js';
import { findMarked, stopProcesses } from '../../src/lab/node/procs.js';
import { ZKLAB_BIN, zklab } from '../helpers/cli.js';
import { tempDir } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';

/**
 * `zklab labs` on a machine with one long-lived lab, one running drill and one orphan (a drill whose owner and
 * warden were both SIGKILLed): each shown as what it is, and `labs prune` removes exactly the orphan. The facts
 * are checked against the processes themselves (their markers), not against what `labs` says.
 */
const base = tempDir();
// A registry of this file's own: the labs of files running beside it are not for these lists, nor for its prune.
process.env.ZKLAB_REGISTRY = `${base}/registry`;
const longLived = new LabPaths(`${base}/long-lived`);
const running = new LabPaths(`${base}/running`);
const orphan = new LabPaths(`${base}/orphan`);
const drillFile = `${base}/hold.yaml`;
writeFileSync(
  drillFile,
  'name: hold\nensemble: { servers: 1 }\ncontenders: { count: 1, recipe: predecessor }\nsteps:\n  - sleep: 60s\n',
);

const drills: ResultPromise[] = [];

interface Listed {
  root: string;
  kind: string;
  status: string;
  owner: { pid: number; alive: boolean } | null;
  servers: { running: number; total: number };
  contenders: { running: number; total: number };
  clientPorts: number[];
}

async function labs(): Promise<Map<string, Listed>> {
  const r = await zklab(['labs', '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  return new Map((JSON.parse(r.stdout) as Listed[]).map((l) => [l.root, l]));
}

/** A drill holding its lab for a minute, once its contender runs. */
async function holdingDrill(paths: LabPaths): Promise<{ readonly run: ResultPromise }> {
  const p = execa(process.execPath, [ZKLAB_BIN, 'drill', 'run', drillFile, '--lab', paths.root], {
    reject: false,
    stdin: 'ignore',
    env: { FORCE_COLOR: '0' },
  });
  drills.push(p);
  await waitFor(() => existsSync(paths.contenderEvents('c1')), `${paths.root}'s contender`, 30_000, 50);
  // Wrapped: a ResultPromise is itself awaitable, and awaiting it waits for the drill to end.
  return { run: p };
}

afterAll(async () => {
  for (const d of drills) d.kill('SIGKILL');
  await zklab(['ensemble', 'down', '--lab', longLived.root]);
  for (const p of [longLived, running, orphan])
    await stopProcesses(findMarked([...p.markers, p.wardenMarker]), 'SIGKILL');
});

describe('zklab labs', () => {
  it('lists a long-lived lab, a running drill and an orphan as such; prune removes exactly the orphan', async () => {
    expect((await zklab(['ensemble', 'up', '-n', '1', '--lab', longLived.root])).exitCode).toBe(0);
    const { run: drill } = await holdingDrill(running);
    const { run: doomed } = await holdingDrill(orphan);
    // An orphan: the lease holder first, then the owner, both without a chance to clean up.
    const [warden] = findMarked([orphan.wardenMarker]);
    expect(warden).toBeDefined();
    process.kill(warden!, 'SIGKILL');
    await waitFor(() => findMarked([orphan.wardenMarker]).length === 0, 'the orphan warden gone');
    doomed.kill('SIGKILL');
    await doomed;

    const listed = await labs();
    expect(listed.get(longLived.root)).toMatchObject({
      kind: 'long-lived',
      status: 'running',
      owner: null,
      servers: { running: 1, total: 1 },
    });
    expect(listed.get(running.root)).toMatchObject({
      kind: 'owned',
      status: 'running',
      owner: { pid: drill.pid, alive: true },
      servers: { running: 1, total: 1 },
      contenders: { running: 1, total: 1 },
    });
    expect(listed.get(orphan.root)).toMatchObject({
      kind: 'owned',
      status: 'orphan',
      owner: { pid: doomed.pid, alive: false },
    });
    expect(findMarked(orphan.markers).length).toBeGreaterThan(0);
    const text = await zklab(['labs']);
    expect(text.stdout).toMatch(/orphan: its owner \(pid \d+\) is gone/);
    expect(text.stdout).toContain('1 lab(s) can go: `zklab labs prune`');
    // With a drill listed, the table still fits a 100-column terminal; --wide has it all.
    for (const line of text.stdout.split('\n'))
      expect(stripVTControlCharacters(line).length, line).toBeLessThanOrEqual(100);
    expect((await zklab(['labs', '--wide'])).stdout).toContain(running.root);

    const pruned = await zklab(['labs', 'prune']);
    expect(pruned.exitCode, pruned.stderr).toBe(0);
    expect(pruned.stdout.trim().split('\n')).toEqual([expect.stringContaining(`pruned ${orphan.root} (orphan`)]);
    expect(findMarked(orphan.markers)).toEqual([]);
    expect(existsSync(orphan.root)).toBe(false);
    expect(findMarked(running.markers).length).toBeGreaterThan(0);
    expect(findMarked(longLived.markers).length).toBeGreaterThan(0);
    expect([...(await labs()).keys()].sort()).toEqual([longLived.root, running.root].sort());
  }, 120_000);

  it('prune with nothing to prune says so and exits 0; labs down of something that is not a lab exits 2 and changes nothing', async () => {
    const nothing = await zklab(['labs', 'prune']);
    expect(nothing).toMatchObject({
      exitCode: 0,
      stdout: 'nothing to prune: every listed lab has its owner and its directory',
    });
    const notALab = await zklab(['labs', 'down', base]);
    expect(notALab.exitCode).toBe(2);
    expect(notALab.stderr.split('\n')[0]).toBe(`zklab: ${base} is not a lab`);
    expect([...(await labs()).keys()].sort()).toEqual([longLived.root, running.root].sort());
  });

  it('ensemble up on ports another lab holds says which lab holds them, and touches nothing', async () => {
    const { basePort } = JSON.parse(readFileSync(longLived.stateFile, 'utf8')) as { basePort: number };
    const other = new LabPaths(`${base}/other`);
    const r = await zklab(['ensemble', 'up', '-n', '1', '--base-port', String(basePort), '--lab', other.root]);
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr.split('\n')[0]).toMatch(
      new RegExp(`already in use, held by the zklab lab at ${longLived.root} \\(pid \\d+\\)$`),
    );
    expect(existsSync(other.stateFile)).toBe(false);
  });

  it('two drills at once, beside a long-lived lab, do not collide', async () => {
    const run = (dir: string) =>
      zklab(['drill', 'run', 'join-and-elect', '--lab', `${base}/${dir}`], { timeoutMs: 120_000 });
    const [a, b] = await Promise.all([run('drill-a'), run('drill-b')]);
    expect(a.exitCode, a.stdout + a.stderr).toBe(0);
    expect(b.exitCode, b.stdout + b.stderr).toBe(0);
    expect(findMarked(longLived.markers).length).toBeGreaterThan(0);
  }, 150_000);

  it('labs down stops a lab the registry lists, and its entry goes', async () => {
    const r = await zklab(['labs', 'down', running.root]);
    expect(r.exitCode, r.stderr).toBe(0);
    await waitFor(() => findMarked(running.markers).length === 0, `${running.root}'s processes gone`, 10_000, 50);
    expect((await labs()).has(running.root)).toBe(false);
  });

  it('labs down says what it stopped, and the second time that there was nothing to stop', async () => {
    expect(findMarked(longLived.markers).length).toBeGreaterThan(0);
    const first = await zklab(['labs', 'down', longLived.root]);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout.trim()).toMatch(new RegExp(`^stopped ${longLived.root} \\(\\d+ process(es)?\\)$`));
    expect(findMarked(longLived.markers)).toEqual([]);
    const again = await zklab(['labs', 'down', longLived.root]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe(`nothing to stop in ${longLived.root}: nothing of it was running`);
  });
});
