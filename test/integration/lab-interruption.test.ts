import { execa, type ResultPromise } from 'execa';
import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { ZKLAB_BIN, zklab } from '../helpers/cli.js';
import { belongsTo, labKernelObjects } from '../helpers/kernel-leftovers.js';
import { labNetPrefix, netnsNames } from '../helpers/kernel-net.js';
import { liveProcesses, nodeProcessesUnder } from '../helpers/node-processes.js';
import { tempDir } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';

/**
 * A command interrupted at a stage of its work leaves nothing behind: SIGINT and SIGTERM by its own clean-up, SIGKILL
 * by the lab's warden (owned labs) or by `ensemble down` (long-lived labs). Each stage is observed from outside (a
 * control group in /sys/fs/cgroup, a namespace in `ip netns`, a process in /proc), never
 * waited for by the clock; what is left is read from the kernel too.
 */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGKILL'] as const;
type Signal = (typeof SIGNALS)[number];

/** What the test sees of a lab while its command runs, by the kernel's word. */
const stages = {
  /** A control group of the lab (any version), under /sys/fs/cgroup. */
  'a control group': (root: string) => labKernelObjects().some((l) => l.startsWith('cgroup ') && belongsTo(l, root)),
  /** A network namespace of the lab. */
  'a namespace': (root: string) => netnsNames().some((n) => n.includes(labNetPrefix(root))),
  /** A ZooKeeper JVM of the lab (its command line names the lab). */
  'a server JVM': (root: string) =>
    liveProcesses((args) => args.some((a) => a.includes('QuorumPeerMain')) && args.join(' ').includes(root)).length > 0,
  /** A process of a contender's node. */
  'a contender': (root: string) => nodeProcessesUnder(`${root}:c`).length > 0,
} as const;
type Stage = keyof typeof stages;

interface Case {
  readonly name: string;
  /** Owned labs end with their owner; the others are long-lived and `ensemble down` ends them. */
  readonly owned: boolean;
  /** A fresh lab: nothing of it, not even its directory, is left after an interrupted command. */
  readonly fresh: boolean;
  readonly env?: Record<string, string>;
  /** Prepares the lab (not interrupted). */
  readonly before?: (lab: string) => Promise<void>;
  readonly args: (lab: string) => string[];
  readonly at: readonly (readonly [Stage, Signal])[];
}

const up = async (lab: string) => {
  const r = await zklab(['ensemble', 'up', '-n', '1', '--lab', lab]);
  expect(r.exitCode, r.stderr).toBe(0);
};

const CASES: readonly Case[] = [
  {
    name: 'ensemble up',
    owned: false,
    fresh: true,
    args: (lab) => ['ensemble', 'up', '--lab', lab],
    at: [
      ['a control group', 'SIGINT'],
      ['a server JVM', 'SIGTERM'],
      ['a server JVM', 'SIGKILL'],
    ],
  },
  {
    name: 'ensemble up --net ns',
    owned: false,
    fresh: true,
    args: (lab) => ['ensemble', 'up', '--net', 'ns', '--lab', lab],
    at: [
      ['a namespace', 'SIGINT'],
      ['a server JVM', 'SIGINT'],
      ['a server JVM', 'SIGKILL'],
    ],
  },
  {
    name: 'ensemble up on the v1 freezer',
    owned: false,
    fresh: true,
    env: { ZKLAB_CONTAINMENT: 'cgroup1' },
    args: (lab) => ['ensemble', 'up', '--lab', lab],
    at: [['a server JVM', 'SIGINT']],
  },
  {
    name: 'contenders spawn',
    owned: false,
    fresh: false,
    before: up,
    args: (lab) => ['contenders', 'spawn', '5', '--lab', lab],
    at: [
      ['a contender', 'SIGINT'],
      ['a contender', 'SIGKILL'],
    ],
  },
  {
    name: 'demo',
    owned: true,
    fresh: true,
    args: (lab) => ['demo', '--lab', lab],
    at: [
      ['a contender', 'SIGINT'],
      ['a contender', 'SIGKILL'],
    ],
  },
  {
    name: 'drill run',
    owned: true,
    fresh: true,
    args: (lab) => ['drill', 'run', 'join-and-elect', '--lab', lab],
    at: [
      ['a contender', 'SIGTERM'],
      ['a contender', 'SIGKILL'],
    ],
  },
];

/** Whatever of the lab is still there: its processes (by command line or node environment) and kernel objects. */
function leftOf(root: string): string[] {
  return [
    ...liveProcesses((args) => args.join(' ').includes(root)).map((p) => `process ${p}`),
    ...nodeProcessesUnder(`${root}:`).map((p) => `node process ${p}`),
    ...labKernelObjects().filter((l) => belongsTo(l, root)),
  ];
}

/** The lab at `root`, if `zklab labs` lists it as stale or orphan (other tests' labs run beside it). */
async function staleLab(root: string): Promise<unknown[]> {
  const r = await zklab(['labs', '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { root: string; status: string }[]).filter(
    (l) => l.root === root && (l.status === 'stale' || l.status === 'orphan'),
  );
}

const running = new Set<ResultPromise>();
const labsMade: string[] = [];

afterAll(async () => {
  for (const cmd of running) cmd.kill('SIGKILL');
  for (const root of labsMade.splice(0)) await zklab(['ensemble', 'down', '--purge', '--lab', root]);
});

// Two at a time (the project's maxConcurrency): each test has a lab of its own and looks at that lab alone.
describe.concurrent('an interrupted command leaves nothing of its lab behind', () => {
  for (const c of CASES) {
    for (const [stage, sig] of c.at) {
      it(`${c.name} × ${sig} once ${stage} exists`, async ({ expect }) => {
        const root = `${tempDir()}/lab`;
        labsMade.push(root);
        await c.before?.(root);
        const cmd = execa(process.execPath, [ZKLAB_BIN, ...c.args(root)], {
          reject: false,
          stdin: 'ignore',
          env: { FORCE_COLOR: '0', CI: 'true', ...c.env },
        });
        running.add(cmd);
        let ended = false;
        void cmd.then(() => {
          ended = true;
        });
        await waitFor(async () => ended || (await stages[stage](root)), `${stage} of ${c.name}`, 30_000, 5);
        expect(ended, `${c.name} ended before ${stage} was seen`).toBe(false);
        cmd.kill(sig);
        const r = await cmd;
        running.delete(cmd);
        const why = `${sig} once ${stage} existed`;
        if (sig !== 'SIGKILL') expect(r.stderr, why).toMatch(/what this command started has been stopped/);
        if (!c.owned && (sig === 'SIGKILL' || !c.fresh)) {
          const down = await zklab(['ensemble', 'down', '--lab', root], { env: c.env });
          expect(down.exitCode, `${why}: ${down.stderr}`).toBe(0);
        }
        await waitFor(() => leftOf(root).length === 0, `nothing of the lab after ${why}`, 10_000, 50).catch(() =>
          expect(leftOf(root), why).toEqual([]),
        );
        if (c.fresh && (c.owned || sig !== 'SIGKILL'))
          await waitFor(() => !existsSync(root), `the lab's directory removed after ${why}`, 10_000, 50);
        expect(await staleLab(root), why).toEqual([]);
      }, 60_000);
    }
  }

  it('ensemble down --purge on the v1 freezer removes every group of the lab, its contenders included', async ({
    expect,
  }) => {
    const root = `${tempDir()}/lab`;
    labsMade.push(root);
    const env = { ZKLAB_CONTAINMENT: 'cgroup1' };
    for (const args of [
      ['ensemble', 'up'],
      ['contenders', 'spawn', '3'],
      ['ensemble', 'down', '--purge'],
    ]) {
      const r = await zklab([...args, '--lab', root], { env });
      expect(r.exitCode, r.stderr).toBe(0);
    }
    // Right after `down`, not after a second one: what it did not remove is left.
    expect(labKernelObjects().filter((l) => belongsTo(l, root))).toEqual([]);
    expect(leftOf(root)).toEqual([]);
  });
});
