import { execa } from 'execa';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveDrill } from '../../src/drills/format/builtins.js';
import { checkVerdicts, drillPassed } from '../../src/drills/judge/result.js';
import { runDrill } from '../../src/drills/run/runner.js';
import { readState } from '../../src/lab/state.js';
import { PACKAGE_ROOT } from '../../src/templates.js';
import { ZKLAB_BIN, zklab } from '../helpers/cli.js';
import {
  addrsOn,
  inNetOf,
  labNetPrefix,
  netLeft,
  netnsNames,
  netnsOf,
  nftTables,
  nothingLeft,
} from '../helpers/kernel-net.js';
import { nodeProcessesUnder, processesNaming } from '../helpers/node-processes.js';
import { explainDrill } from '../helpers/drill-explain.js';
import { tempDir, tempLab } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';
import { fourLetter, srvrMode } from '../helpers/zk-raw.js';

/**
 * Nodes with networks of their own (`--net ns`): every server and contender in a network namespace on the lab's
 * bridge, faulted by the kernel. Every check asks the kernel or the nodes themselves: a data plane (a TCP echo and a
 * UDP counter, test/programs/echo_node.py) reached from inside another node's namespace, ZooKeeper's `srvr` over the
 * bridge, and `ip`/`nft` for what is left. The built-in drills that make sense on this net run here (once per suite:
 * drills.test.ts runs the others).
 */

const ECHO = join(PACKAGE_ROOT, 'test', 'programs', 'echo_node.py');
const PORT = 7070;
const paths = tempLab();
const lab = paths.root;
const prefix = labNetPrefix(lab);
const echoDir = tempDir();

async function cli(args: string[], labDir = lab): Promise<string> {
  const r = await zklab(args, { lab: labDir });
  if (r.exitCode !== 0) throw new Error(`zklab ${args.join(' ')} exited ${r.exitCode}: ${r.stderr.trim()}`);
  return r.stdout;
}

interface EchoRecord {
  readonly pid: number;
  readonly addr: string;
  readonly udp: Readonly<Record<string, number>>;
}

/** What a node's data plane says of itself (its own file). */
function echoRecord(id: string): EchoRecord | undefined {
  try {
    return JSON.parse(readFileSync(join(echoDir, `${id}.json`), 'utf8')) as EchoRecord;
  } catch {
    return undefined;
  }
}

/** From inside `from`'s namespace: 0 when `to`'s echo answers, 1 refused or reset, 2 no answer within 1 s. */
async function reach(from: string, to: string): Promise<number> {
  const [a, b] = [echoRecord(from)!, echoRecord(to)!];
  return (await inNetOf(a.pid, ['python3', ECHO, 'connect', b.addr, String(PORT)])).exitCode;
}

/** Sends `count` datagrams tagged `tag` from inside `from`'s namespace to `to`'s data plane. */
async function send(from: string, to: string, tag: string, count: number): Promise<void> {
  const [a, b] = [echoRecord(from)!, echoRecord(to)!];
  const r = await inNetOf(a.pid, ['python3', ECHO, 'send', b.addr, String(PORT), tag, String(count)]);
  expect(r.exitCode).toBe(0);
}

const received = (id: string, tag: string): number => echoRecord(id)?.udp[tag] ?? 0;

/**
 * Datagrams sent to a node before a marker it counts in full are counted by then (one socket, in order), so waiting
 * for the marker makes a zero a fact rather than a guess about timing.
 */
async function settle(from: string, to: string, marker: string): Promise<void> {
  await send(from, to, marker, 10);
  await waitFor(() => received(to, marker) === 10, `${to} to count the ${marker} datagrams`, 10_000);
}

interface Server {
  readonly name: string;
  readonly clientPort: number;
  readonly addr: string;
}

function servers(): Server[] {
  const s = readState(paths)!;
  return s.servers.map((x) => ({ name: x.name, clientPort: x.clientPort, addr: s.nodeNet!.addrs[x.name]! }));
}

/** Each server's srvr mode, asked over the bridge at its node address (null: no answer, or not serving). */
async function modes(): Promise<Record<string, string | null>> {
  const all = servers();
  const answers = await Promise.all(all.map((s) => fourLetter(s.clientPort, 'srvr', s.addr)));
  return Object.fromEntries(all.map((s, i) => [s.name, srvrMode(answers[i]!)]));
}

async function leaderServer(): Promise<string> {
  return waitFor(
    async () => Object.entries(await modes()).find(([, m]) => m === 'leader')?.[0],
    'a server to say Mode: leader',
    30_000,
  );
}

async function allServing(): Promise<void> {
  await waitFor(
    async () => {
      const m = Object.values(await modes());
      return m.every((x) => x === 'leader' || x === 'follower') && m.filter((x) => x === 'leader').length === 1;
    },
    'every server serving under one leader',
    40_000,
  );
}

/** The faulted pairs `inspect --json` shows, as `from>to fault`. */
async function viewedCuts(): Promise<string[]> {
  const s = JSON.parse(await cli(['inspect', '--once', '--json'])) as {
    partitions: { from: string; to: string; fault: string }[];
  };
  return s.partitions.map((p) => `${p.from}>${p.to} ${p.fault}`);
}

beforeAll(async () => {
  await cli(['ensemble', 'up', '-n', '3', '--net', 'ns']);
  await cli([
    'contenders',
    'spawn',
    '2',
    '--exec',
    '--',
    'python3',
    ECHO,
    'serve',
    '{addr}',
    String(PORT),
    echoDir,
    '{id}',
  ]);
  await waitFor(() => echoRecord('c1') && echoRecord('c2'), 'both data planes to listen');
}, 120_000);

afterAll(async () => {
  const down = await zklab(['ensemble', 'down', '--purge'], { lab });
  expect(down.exitCode, down.stderr).toBe(0);
  await nothingLeft(prefix);
  expect(nodeProcessesUnder(`${lab}:`)).toEqual([]);
}, 60_000);

describe('nodes on a network of their own', () => {
  it('each node has a namespace of its own on the lab bridge, named as the lab is', () => {
    const [c1, c2] = [echoRecord('c1')!, echoRecord('c2')!];
    expect(netnsOf(c1.pid)).not.toBe(netnsOf(process.pid));
    expect(netnsOf(c1.pid)).not.toBe(netnsOf(c2.pid));
    expect(c1.addr).toMatch(/^198\.1[89]\.\d+\.\d+$/);
    // The names the "nothing left" checks look for are the names the lab made.
    expect(netnsNames().filter((n) => n.startsWith(prefix)).length).toBe(5);
    expect(addrsOn(`${prefix}br`)).toEqual([`${c1.addr.replace(/\.\d+$/, '.1')}/24`]);
  });

  it('partition isolate cuts every packet of the node both ways, heal restores them; reject answers with resets', async () => {
    expect(await reach('c2', 'c1')).toBe(0);
    await cli(['partition', 'isolate', 'c1']);
    expect(await reach('c2', 'c1')).toBe(2);
    expect(await reach('c1', 'c2')).toBe(2);
    // The views show the kernel's cut as they show a proxy's: every pair with c1, and no other.
    expect(await cli(['partition', 'list'])).toMatch(/faults in the kernel[\s\S]*isolate c1/);
    const cut = await viewedCuts();
    expect(cut.length).toBeGreaterThan(0);
    expect(cut.every((p) => p.includes('c1'))).toBe(true);
    expect(cut).toContain('c2>c1 partition');
    await cli(['heal', 'c1']);
    expect(await viewedCuts()).toEqual([]);
    expect(await reach('c2', 'c1')).toBe(0);
    await cli(['partition', 'isolate', 'c1', '--mode', 'reject']);
    expect(await reach('c2', 'c1')).toBe(1);
    await cli(['heal', 'c1']);
    expect(await reach('c2', 'c1')).toBe(0);
  });

  it('partition one-way A B drops what A sends B; what B sends A arrives', async () => {
    await cli(['partition', 'one-way', 'c1', 'c2']);
    await send('c1', 'c2', 'ab', 100);
    await send('c2', 'c1', 'ba', 100);
    await waitFor(() => received('c1', 'ba') === 100, 'c1 to count the 100 datagrams c2 sent', 10_000);
    await cli(['heal', 'c1']);
    await settle('c1', 'c2', 'ab-after');
    expect(received('c2', 'ab')).toBe(0);
  });

  it('net loss c1 30 drops 30 % ± 5 of 2,000 datagrams; net clear ends it', async () => {
    const c1 = echoRecord('c1')!;
    await cli(['net', 'loss', 'c1', '30']);
    // The rules sit in the node's own namespace.
    expect((await inNetOf(c1.pid, ['nft', 'list', 'tables'])).stdout).toContain(prefix);
    expect(await viewedCuts()).toContain('c1>all loss');
    await send('c2', 'c1', 'loss', 2000);
    await cli(['net', 'clear', 'c1']);
    expect((await inNetOf(c1.pid, ['nft', 'list', 'tables'])).stdout).not.toContain(prefix);
    await settle('c2', 'c1', 'loss-after');
    const dropped = 1 - received('c1', 'loss') / 2000;
    expect(dropped).toBeGreaterThanOrEqual(0.25);
    expect(dropped).toBeLessThanOrEqual(0.35);
  });

  it('bad requests are refused with one line, exit 2, and change nothing', async () => {
    for (const [args, message] of [
      [['net', 'loss', 'c1', '130'], /"130" is above 100/],
      [['partition', 'one-way', 'c1', 'c1'], /c1/],
    ] as const) {
      const r = await zklab([...args], { lab });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr.split('\n')[0]).toMatch(message);
    }
    const delay = await zklab(['net', 'delay', 'c1', '50'], { lab });
    const netem = (await inNetOf(echoRecord('c1')!.pid, ['tc', 'qdisc', 'add', 'dev', 'lo', 'root', 'netem'])).exitCode;
    if (netem === 0) {
      await inNetOf(echoRecord('c1')!.pid, ['tc', 'qdisc', 'del', 'dev', 'lo', 'root']);
      expect(delay.exitCode, delay.stderr).toBe(0);
      await cli(['net', 'clear']);
    } else {
      expect(delay.exitCode).toBe(2);
      expect(delay.stderr).toMatch(/^zklab: .*netem/);
    }
    expect(await reach('c2', 'c1')).toBe(0);
    expect(nftTables().filter((t) => t.includes(prefix))).toEqual([]);

    // Without the capabilities a namespace needs: refused before anything is made.
    const bare = join(tempDir(), 'lab');
    const r = await execa(
      'setpriv',
      [
        '--bounding-set=-net_admin,-sys_admin',
        '--inh-caps=-net_admin,-sys_admin',
        process.execPath,
        ZKLAB_BIN,
        'ensemble',
        'up',
        '--net',
        'ns',
        '--lab',
        bare,
      ],
      { reject: false, env: { FORCE_COLOR: '0' } },
    );
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^zklab: --net ns .*CAP_NET_ADMIN/);
    expect(existsSync(bare)).toBe(false);
  });

  it('ZooKeeper on the node net: kill zk-leader, isolate zk-leader, split away quorum, as srvr over the bridge says', async () => {
    await allServing();
    const first = await leaderServer();
    await cli(['kill', 'zk-leader']);
    const second = await waitFor(
      async () => Object.entries(await modes()).find(([n, m]) => m === 'leader' && n !== first)?.[0],
      'another server to lead after the leader was killed',
      30_000,
    );
    expect((await modes())[first]).toBeNull();
    await cli(['ensemble', 'up']);
    await allServing();

    await cli(['partition', 'isolate', 'zk-leader']);
    const third = await waitFor(
      async () => Object.entries(await modes()).find(([n, m]) => m === 'leader' && n !== second)?.[0],
      'a new leader beside the isolated one',
      30_000,
    );
    // The isolated server answers no one, the lab's commands included.
    expect((await modes())[second]).toBeNull();
    await cli(['heal', second]);
    await allServing();
    expect(third).not.toBe(second);

    // Each server alone: no quorum anywhere, then quorum again once healed.
    await cli(['partition', 'split', 'zk1', 'zk2']);
    await waitFor(
      async () => {
        const answers = await Promise.all(servers().map((s) => fourLetter(s.clientPort, 'srvr', s.addr)));
        return answers.every((a) => /not currently serving/.test(a));
      },
      'every server to stop serving',
      30_000,
    );
    await cli(['heal']);
    await allServing();
  });

  it('two node-network labs at once, each with its own /24 and table, beside a proxy lab', async () => {
    const other = tempLab();
    const proxy = tempLab();
    const otherPrefix = labNetPrefix(other.root);
    try {
      await cli(['ensemble', 'up', '-n', '1', '--net', 'ns'], other.root);
      await cli(['ensemble', 'up', '-n', '1'], proxy.root);
      const [mine, theirs] = [addrsOn(`${prefix}br`)[0]!, addrsOn(`${otherPrefix}br`)[0]!];
      expect(mine.replace(/\.\d+\/24$/, '')).not.toBe(theirs.replace(/\.\d+\/24$/, ''));
      const o = readState(other)!;
      expect(srvrMode(await fourLetter(o.servers[0]!.clientPort, 'srvr', o.nodeNet!.addrs.zk1!))).toBe('standalone');
      const p = readState(proxy)!;
      expect(srvrMode(await fourLetter(p.servers[0]!.clientPort, 'srvr'))).toBe('standalone');

      await cli(['partition', 'isolate', 'c1']);
      await cli(['partition', 'isolate', 'zk1'], other.root);
      const tables = nftTables();
      expect(tables).toContain(`bridge ${prefix}`);
      expect(tables).toContain(`bridge ${otherPrefix}`);
      // A fault in one lab leaves the other's nodes alone.
      expect(await reach('c2', 'c1')).toBe(2);
      await cli(['heal']);
      expect(await reach('c2', 'c1')).toBe(0);
      expect(nftTables()).toContain(`bridge ${otherPrefix}`);

      const loss = await zklab(['net', 'loss', 'zk1', '10'], { lab: proxy.root });
      expect(loss.exitCode).toBe(2);
      expect(loss.stderr.split('\n')[0]).toMatch(/^zklab: packet loss needs the lab's node network/);
    } finally {
      await zklab(['ensemble', 'down', '--purge'], { lab: other.root });
      await zklab(['ensemble', 'down', '--purge'], { lab: proxy.root });
    }
    await nothingLeft(otherPrefix);
    expect(netLeft(prefix).length).toBeGreaterThan(0);
  });
});

describe('nothing of a node network outlives its lab', () => {
  it('after an up that failed', async () => {
    const dir = join(tempDir(), 'lab');
    const fakeHome = tempDir();
    mkdirSync(`${fakeHome}/lib`);
    writeFileSync(`${fakeHome}/lib/zookeeper-3.8.0.jar`, 'not a jar');
    const p = labNetPrefix(dir);
    const up = zklab(['ensemble', 'up', '--net', 'ns'], { lab: dir, env: { ZOOKEEPER_HOME: fakeHome } });
    // The network was made before the servers failed: what is checked below was there to be removed.
    await waitFor(() => netnsNames().some((n) => n.startsWith(p)), "the lab's namespaces", 30_000, 5);
    const r = await up;
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/exited while the ensemble was starting/);
    await nothingLeft(p);
  });

  it('after SIGKILL of the owner of a drill run on ns', async () => {
    const dir = join(tempDir(), 'lab');
    const p = labNetPrefix(dir);
    const owner = execa(
      process.execPath,
      [ZKLAB_BIN, 'drill', 'run', 'zk-leader-isolation', '--net', 'ns', '--lab', dir],
      {
        reject: false,
        env: { FORCE_COLOR: '0' },
        stdin: 'ignore',
      },
    );
    await waitFor(
      () => netnsNames().filter((n) => n.startsWith(p)).length >= 3,
      "the drill's server namespaces",
      60_000,
    );
    owner.kill('SIGKILL');
    await owner;
    await nothingLeft(p);
    await waitFor(
      () => processesNaming(dir).length === 0 && nodeProcessesUnder(`${dir}:`).length === 0,
      'no process of the lab',
      5000,
    );
  });
});

// Two drills at a time (the labs project's maxConcurrency): each has a lab and a /24 of its own.
describe('built-in drills on the node network', () => {
  it.concurrent.for(['zk-leader-isolation', 'client-partition', 'zombie-leader', 'leader-node-isolated'])(
    '%s passes on ns',
    { timeout: 180_000 },
    async (name, { expect }) => {
      const dir = join(tempDir(), 'lab');
      const r = await runDrill(resolveDrill(name), { labDir: dir, seed: 1, net: 'ns' });
      expect(drillPassed(r), explainDrill(r)).toBe(true);
      for (const v of checkVerdicts(r)) expect(v.check.passed, `${name} ${v.check.name}`).toBe(!v.expectedToFail);
      await nothingLeft(labNetPrefix(dir));
    },
  );

  it.concurrent('leader-node-isolated on the proxy net: the old primary keeps taking writes, singleLeader fails', {
    timeout: 180_000,
  }, async ({ expect }) => {
    const r = await runDrill(resolveDrill('leader-node-isolated'), {
      labDir: join(tempDir(), 'lab'),
      seed: 1,
      net: 'proxy',
    });
    expect(r.error).toBeUndefined();
    const single = r.checks.find((c) => c.name === 'singleLeader');
    expect(single?.passed, single?.summary).toBe(false);
  });
});
