import { describe, expect, it } from 'vitest';
import { readLabEvents } from '../../src/lab/event-log.js';
import type { LabEventOf } from '../../src/lab/events.js';
import { directConnectString, readState } from '../../src/lab/state.js';
import { zklab } from '../helpers/cli.js';
import { snapshotDir } from '../helpers/lab-snapshot.js';
import { tempLab } from '../helpers/paths.js';
import { sharedLab } from '../helpers/shared-ensemble.js';
import { waitFor } from '../helpers/wait.js';
import { watchFacts } from '../helpers/zk-facts.js';

/**
 * The lock workload on one shared 3-server ensemble, each test on a lock path of its own. Who held the lock and in
 * which order is read from ZooKeeper (the lock's children and their czxids, as this test's own client saw them;
 * the servers' watch lists) and from the protected resource's own record in the lab's event log, which the lab's
 * daemon writes, not the holders.
 */
const paths = tempLab();
const lab = paths.root;
const { zk, cli } = sharedLab(paths);

/** The resource's own record of the writes it was sent for `lock`, in the order it decided them. */
const resourceWrites = (lock: string): LabEventOf<'resource-write'>[] =>
  readLabEvents(paths.labEventsFile).filter(
    (e): e is LabEventOf<'resource-write'> => e.event === 'resource-write' && e.resource === lock,
  );

const sequenceOf = (name: string): number => Number(/(\d{10})$/.exec(name)![1]);

/** What `inspect --json` says of a lock path, as far as these tests read it. */
interface Inspected {
  readonly problems: readonly string[];
  readonly lock: { readonly holder: { readonly contender: string | null; readonly heldMs: number | null } | null };
}

/**
 * Follows `path`'s children with a watch re-armed on every change, noting each new child's czxid as ZooKeeper
 * reports it: czxid → the child's sequence. Stop with the returned function.
 */
function followChildren(path: string): { seen: Map<number, number>; stop: () => void } {
  const seen = new Map<number, number>();
  const known = new Set<string>();
  let stopped = false;
  const look = async (): Promise<void> => {
    if (stopped) return;
    const names = await zk().getChildren(path, () => void look());
    await Promise.all(
      names
        .filter((n) => !known.has(n))
        .map(async (n) => {
          known.add(n);
          const stat = await zk().exists(`${path}/${n}`);
          if (stat) seen.set(stat.czxid, sequenceOf(n));
        }),
    );
  };
  void look();
  return { seen, stop: () => (stopped = true) };
}

describe('the lock workload', () => {
  it('hands the lock over in sequence order (the queue): every token the resource took is a czxid of a lock znode, in FIFO order', async () => {
    await zk().mkdirp('/l1');
    const follow = followChildren('/l1');
    await cli([
      'contenders',
      'spawn',
      '4',
      '--workload',
      'lock',
      '--path',
      '/l1',
      '--hold',
      '40ms',
      '--think',
      '40ms',
      '--fencing',
      'off',
    ]);
    await waitFor(() => resourceWrites('/l1').length >= 40, '40 writes to the resource', 30_000);
    await cli(['contenders', 'stop', '--all']);
    follow.stop();

    const writes = resourceWrites('/l1');
    const tokens = writes.map((w) => w.token);
    // Without fencing the resource takes every write: its record is the order in which holders came.
    expect(writes.every((w) => w.accepted)).toBe(true);
    const sequences = tokens.map((t) => follow.seen.get(t));
    expect(
      sequences.filter((s) => s === undefined),
      'tokens that are no czxid of a /l1 child ZooKeeper showed',
    ).toHaveLength(0);
    for (let i = 1; i < sequences.length; i++) expect(sequences[i]!, `write ${i}`).toBeGreaterThan(sequences[i - 1]!);
    expect(new Set(writes.map((w) => w.holder)).size).toBe(4);
    // Each holder counted its hold: nobody's update was lost.
    expect(writes.map((w) => w.value)).toEqual(writes.map((_, i) => i + 1));
  }, 90_000);

  it('in the queue each waiter watches only the znode before its own; in the herd every waiter watches the lock', async () => {
    await cli(['contenders', 'spawn', '4', '--workload', 'lock', '--path', '/l2', '--hold', '60s']);
    const queue = await waitFor(
      async () => {
        const names = (await zk().getChildren('/l2')).sort((a, b) => sequenceOf(a) - sequenceOf(b));
        if (names.length !== 4) return null;
        const { byPath } = await watchFacts(readState(paths)!);
        const watched = names.map((n) => byPath.get(`/l2/${n}`)?.length ?? 0);
        return watched.join(',') === '1,1,1,0' ? watched : null;
      },
      'one exists watch on each znode but the last',
      20_000,
    );
    expect(queue).toEqual([1, 1, 1, 0]);
    await cli(['contenders', 'stop', '--all']);

    const before = (await watchFacts(readState(paths)!)).childWatches;
    await cli(['contenders', 'spawn', '4', '--workload', 'lock', '--recipe', 'herd', '--path', '/l3', '--hold', '60s']);
    await waitFor(
      async () => (await watchFacts(readState(paths)!)).childWatches - before === 3,
      'three child watches (the waiters)',
      20_000,
    );
    const names = await zk().getChildren('/l3');
    const { byPath } = await watchFacts(readState(paths)!);
    expect(names.map((n) => byPath.get(`/l3/${n}`)?.length ?? 0)).toEqual([0, 0, 0, 0]);
  }, 90_000);

  it('inspect --json on a healthy lock run finds no problem for 12 s, and counts each hold from its acquisition', async () => {
    await cli([
      'contenders',
      'spawn',
      '5',
      '--workload',
      'lock',
      '--path',
      '/l-view',
      '--hold',
      '300ms',
      '--think',
      '200ms',
    ]);
    const seen: string[] = [];
    const held: number[] = [];
    const holders = new Set<string>();
    // 12 s of views, each a CLI run of its own: holds of 300 ms go round five holders many times in it.
    const until = Date.now() + 12_000;
    while (Date.now() < until) {
      const r = await zklab(['inspect', '--path', '/l-view', '--json'], { lab });
      const view = JSON.parse(r.stdout) as Inspected;
      seen.push(...view.problems);
      if (view.lock.holder?.heldMs != null) held.push(view.lock.holder.heldMs);
      if (view.lock.holder?.contender) holders.add(view.lock.holder.contender);
    }
    // The lock went round (the run was a healthy one, not a stuck one), and no frame cried split brain.
    expect(holders.size).toBeGreaterThanOrEqual(3);
    expect(held.length).toBeGreaterThanOrEqual(5);
    expect(seen).toEqual([]);
    // A hold lasts 300ms and the write that follows it; never the time the holder waited in the queue.
    expect(Math.max(...held)).toBeLessThan(800);
  }, 60_000);

  it('with fencing, a holder frozen past its session has its late write refused by the resource', async () => {
    await cli([
      'contenders',
      'spawn',
      '2',
      '--workload',
      'lock',
      '--path',
      '/l5',
      '--hold',
      '1500ms',
      '--think',
      '50ms',
      '--session-timeout',
      '2000',
    ]);
    const first = await waitFor(async () => {
      const names = (await zk().getChildren('/l5')).sort((a, b) => sequenceOf(a) - sequenceOf(b));
      return names.length === 2 ? names[0] : null;
    }, 'two lock znodes');
    // Who holds, by ZooKeeper: the lowest znode, whose data names its contender.
    const owner = (JSON.parse((await zk().getData(`/l5/${first}`)).data.toString()) as { id: string }).id;
    await cli(['pause', 'contender', owner]);
    // ZooKeeper expires the frozen holder's session: its znode goes, and the other holder writes.
    await waitFor(async () => (await zk().exists(`/l5/${first}`)) === null, "the frozen holder's znode to go", 15_000);
    await waitFor(
      () => resourceWrites('/l5').some((w) => w.holder !== owner && w.accepted),
      'a write of the next holder',
      15_000,
    );
    // A real overlap: the frozen holder still believes it holds, and inspect says so against ZooKeeper's holder.
    const view = JSON.parse((await zklab(['inspect', '--path', '/l5', '--json'], { lab })).stdout) as Inspected;
    expect(view.problems).toEqual([
      expect.stringMatching(new RegExp(`^${owner} believes it leads, but the leader znode`)),
    ]);
    await cli(['resume', 'contender', owner]);
    const late = await waitFor(
      () => resourceWrites('/l5').find((w) => w.holder === owner),
      "the frozen holder's late write",
      15_000,
    );
    expect(late.accepted).toBe(false);
    expect(late.token).toBeLessThan(late.lastToken);
    expect(resourceWrites('/l5').filter((w) => w.accepted && w.token < w.lastToken)).toEqual([]);
  }, 90_000);

  it.each([
    [['--workload', 'lock', '--hold', 'abc'], /--hold: "abc" is not a duration/],
    [['--workload', 'lock', '--think=-1s'], /--think: "-1s" is negative/],
    [['--workload', 'lock', '--priority', '1,2'], /--priority: only applies to --recipe priority/],
    [
      ['--workload', 'lock', '--recipe', 'priority'],
      /--recipe: --workload lock runs on predecessor or herd, not priority/,
    ],
    [['--workload', 'lock', '--strategy', 'random'], /--strategy: only applies to --workload scheduler/],
    [['--hold', '1s'], /--hold: only applies to --workload lock/],
    [['--workload', 'lock', '--fencing', 'maybe'], /--fencing: "maybe" is unknown/],
  ])(
    'refuses spawn %j with one line, exit 2, and no change to the lab',
    async (extra, message) => {
      const before = snapshotDir(lab);
      const r = await zklab(['contenders', 'spawn', '2', ...extra], { lab });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
      expect(snapshotDir(lab)).toEqual(before);
    },
    30_000,
  );

  it('runs lock holders on a lab pointed at an outside ensemble (--connect): the spawn starts the daemon that serves the resource', async () => {
    const outside = tempLab();
    const connect = directConnectString(readState(paths)!);
    try {
      const r = await zklab(
        ['contenders', 'spawn', '2', '--workload', 'lock', '--path', '/l6', '--hold', '20ms', '--connect', connect],
        { lab: outside.root },
      );
      expect(r.exitCode, r.stderr).toBe(0);
      await waitFor(
        () =>
          readLabEvents(outside.labEventsFile).filter((e) => e.event === 'resource-write' && e.resource === '/l6')
            .length >= 4,
        "writes to the outside lab's resource",
      );
    } finally {
      await zklab(['ensemble', 'down', '--purge'], { lab: outside.root });
    }
  }, 60_000);

  it('refuses holders that disagree with the live ones about fencing, changing nothing', async () => {
    await cli(['contenders', 'spawn', '1', '--workload', 'lock', '--path', '/l4', '--fencing', 'off', '--hold', '60s']);
    const state = readState(paths);
    const configured = readLabEvents(paths.labEventsFile).filter((e) => e.event === 'resource-configured').length;
    const r = await zklab(['contenders', 'spawn', '1', '--workload', 'lock', '--path', '/l4'], { lab });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/the lock \/l4 already has holders with --fencing off \(c\d+\)/);
    expect(readState(paths)).toEqual(state);
    expect(readLabEvents(paths.labEventsFile).filter((e) => e.event === 'resource-configured')).toHaveLength(
      configured,
    );
    expect(await zk().getChildren('/l4')).toHaveLength(1);
  }, 30_000);
});
