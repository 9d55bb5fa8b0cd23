import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listeningPeerLinks } from '../helpers/sockets.js';
import { ensembleDown } from '../../src/ensemble/service.js';
import { findMarked } from '../../src/lab/node/procs.js';
import { readState } from '../../src/lab/state.js';
import { zklab, type CliResult } from '../helpers/cli.js';
import { tempDir, tempLab } from '../helpers/paths.js';

/** A usage error: exit 2, one `zklab:` line saying what is wrong (plus an indented hint), no stack. */
function expectUsage(r: CliResult, message: RegExp): void {
  expect(r.exitCode, r.stderr).toBe(2);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^zklab: /);
  expect(lines[0]).toMatch(message);
  expect(lines.slice(1).every((l) => l.startsWith('  '))).toBe(true);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

describe('network commands with no lab', () => {
  it.each([
    [['partition', 'isolate', 'zk1'], /there is no lab at/],
    [['partition', 'split', 'zk1', 'zk2,zk3'], /there is no lab at/],
    [['partition', 'list'], /there is no lab at/],
    [['heal'], /there is no lab at/],
    [['heal', 'zk1'], /there is no lab at/],
    [['net', 'delay', 'c1', '300'], /there is no lab at/],
    [['net', 'delay', 'c1', '-1'], /<ms>: "-1" is negative/],
    [['net', 'delay', 'c1', '60001'], /<ms> 60001 is out of range/],
    [['net', 'delay', 'c1', '61s'], /<ms> 61s is out of range/],
    [['net', 'clear'], /there is no lab at/],
    [['partition', 'isolate', 'zk1', '--mode', 'drop'], /unknown mode "drop"/],
  ])('zklab %j', async (args, message) => {
    const lab = `${tempDir()}/lab`;
    expectUsage(await zklab(args, { lab }), message);
    expect(existsSync(lab)).toBe(false);
  });
});

describe('network commands on a lab, through the built CLI', () => {
  const paths = tempLab();
  const lab = paths.root;
  const run = (args: string[]) => zklab(args, { lab });
  const json = async (args: string[]) => {
    const r = await run([...args, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  };
  /** What must not change on refused input: the network the daemon applies, the lab state, the lab's events. */
  const network = async () => {
    const l = await json(['partition', 'list']);
    return {
      rules: l.rules,
      delays: l.delays,
      faulty: l.faultyLinks.map((k: { id: string; fault: unknown }) => [k.id, k.fault]),
      state: readState(paths)!.net,
      events: readFileSync(paths.labEventsFile, 'utf8'),
    };
  };

  beforeAll(async () => {
    const up = await run(['ensemble', 'up', '--servers', '3']);
    expect(up.exitCode, up.stderr).toBe(0);
    const spawn = await run(['contenders', 'spawn', '2']);
    expect(spawn.exitCode, spawn.stderr).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await ensembleDown(paths, { purge: true });
  });

  it('isolate, delay, list, status and contenders list, heal and clear', async () => {
    let r = await run(['partition', 'isolate', 'c2']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/isolate c2 \(blackhole\)/);
    r = await run(['net', 'delay', 'c1', '100ms', '--jitter', '10']);
    expect(r.exitCode, r.stderr).toBe(0);

    const list = await json(['partition', 'list']);
    expect(list.rules).toEqual([{ type: 'isolate', member: 'c2', mode: 'blackhole' }]);
    expect(list.delays).toEqual([{ member: 'c1', delayMs: 100, jitterMs: 10 }]);
    expect(list.faultyLinks.filter((k: { from: string }) => k.from === 'c2')).toHaveLength(3);
    expect(list.faultyLinks.find((k: { id: string }) => k.id === 'client:c1->zk1').fault).toEqual({
      mode: 'pass',
      delayMs: 50,
      jitterMs: 5,
    });

    const status = await json(['ensemble', 'status']);
    expect(status.network.daemon.running).toBe(true);
    expect(status.network.faults).toEqual(['isolate c2 (blackhole)', 'delay c1 100ms + up to 10ms jitter']);
    expect((await run(['ensemble', 'status'])).stdout).toMatch(
      /network faults: isolate c2 \(blackhole\); delay c1 100ms/,
    );

    const contenders = await json(['contenders', 'list']);
    expect(contenders.network.faults).toHaveLength(2);
    const byId = Object.fromEntries(contenders.contenders.map((c: { id: string }) => [c.id, c]));
    expect(byId.c2.network.cutFrom).toEqual(expect.arrayContaining(['zk1', 'zk2', 'zk3']));
    expect(byId.c2.network.mode).toBe('blackhole');
    expect(byId.c1.network).toMatchObject({ cutFrom: ['c2'], delayMs: 100, jitterMs: 10 });
    expect((await run(['contenders', 'list'])).stdout).toMatch(/network faults: isolate c2/);

    expect((await run(['heal', 'c2'])).stdout).toMatch(/healed: isolate c2 \(blackhole\)/);
    expect((await run(['heal'])).stdout).toMatch(/nothing to heal/);
    expect((await run(['net', 'clear'])).stdout).toMatch(/cleared: delay c1 100ms/);
    const after = await json(['partition', 'list']);
    expect(after).toMatchObject({ rules: [], delays: [], faultyLinks: [] });
    const labEvents = readFileSync(paths.labEventsFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(
      labEvents.filter((e) => ['partition', 'delay', 'heal'].includes(e.event)).map((e) => [e.event, e.target]),
    ).toEqual([
      ['partition', 'c2'],
      ['delay', 'c1'],
      ['heal', 'c2'],
      ['heal', undefined],
    ]);
  }, 120_000);

  it('refuses bad input with one clear line and exit 2, leaving the network as it was', async () => {
    expect((await run(['contenders', 'spawn', '1'])).exitCode).toBe(0);
    expect((await run(['kill', 'contender', 'c3'])).exitCode).toBe(0);
    expect((await run(['partition', 'isolate', 'zk3'])).exitCode).toBe(0);
    // Durations are written one way everywhere: 40ms, 0.04s and 40 are the same delay.
    expect((await run(['net', 'delay', 'c1', '0.04s'])).exitCode).toBe(0);
    expect((await json(['partition', 'list'])).delays).toEqual([{ member: 'c1', delayMs: 40, jitterMs: 0 }]);
    const before = await network();
    const cases: [string[], RegExp][] = [
      [['partition', 'isolate', 'zk9'], /unknown target "zk9"/],
      [['partition', 'isolate', 'c7'], /unknown target "c7"/],
      [['partition', 'isolate', 'zk1', '--mode', 'drop'], /unknown mode "drop"/],
      [['partition', 'split', 'zk1,c1', 'c1,zk2'], /member 'c1' is in two groups/],
      [['partition', 'split', 'zk1,zk2,zk3,c1,c2'], /a split needs at least two groups, got 1/],
      [['partition', 'split', 'zk1,,zk2', 'zk3'], /has an empty name/],
      [['partition', 'split', 'zk1', 'nobody'], /unknown target "nobody"/],
      [['net', 'delay', 'c1', '-1'], /<ms>: "-1" is negative/],
      [['net', 'delay', 'c1', '60001'], /<ms> 60001 is out of range/],
      [['net', 'delay', 'c1', 'soon'], /<ms>: "soon" is not a duration/],
      [['net', 'delay', 'zk1', '100', '--jitter', '70s'], /--jitter 70s is out of range/],
      [['net', 'delay', 'c3', '100'], /contender c3 is not running: a delay on its links would act on nothing/],
      [['partition', 'isolate', 'c3'], /contender c3 is not running: a partition on its links would act on nothing/],
      [['net', 'delay', 'c9', '100'], /unknown target "c9"/],
      [['heal', 'zk9'], /unknown target "zk9"/],
      [['net', 'clear', 'c9'], /unknown target "c9"/],
    ];
    for (const [args, message] of cases) expectUsage(await run(args), message);
    expect(await network()).toEqual(before);
    // Those not named form one more group: the living only (c3 was killed above).
    const split = await run(['partition', 'split', 'zk1', 'zk2,zk3']);
    expect(split.stdout).toMatch(/split zk1 \| zk2,zk3 \| c1,c2 \(blackhole\)/);
    expect((await run(['heal'])).exitCode).toBe(0);
    expect((await run(['net', 'clear'])).exitCode).toBe(0);
  }, 180_000);

  it('`ensemble down` leaves no link daemon or proxy behind', async () => {
    const servers = readState(paths)!.servers;
    const r = await run(['ensemble', 'down']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(findMarked(paths.markers)).toEqual([]);
    expect(await listeningPeerLinks(servers)).toEqual([]);
    expect(existsSync(paths.controlSocket)).toBe(false);
  }, 60_000);
});
