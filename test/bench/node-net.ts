/**
 * Issue 27: nodes with networks of their own. Against the proxy net, in the same run:
 * - `ensemble up` of 3 servers, ns vs proxy (alternating), and `ensemble down` of an ns lab until `ip netns`, `ip link`
 *   and `nft list tables` show nothing of it;
 * - a getData round trip p50/p99 from the machine: to an ns server over the bridge, through a link proxy, and
 *   straight to a proxy lab's server on loopback (turns alternate, so drift hits all alike); and, for the floor, the
 *   same ns servers asked from inside their own namespaces (no bridge in the path);
 * - fault take-effect: a node sends another a datagram every ~0.1 ms; `partition isolate` of the receiver returns at
 *   T; the receiver's own record says when its last datagram arrived. Anything after T is a fault not yet in force.
 *   The command's own duration, ns vs proxy, beside it.
 */
import { execa, type ResultPromise } from 'execa';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { spawnContenders } from '../../src/contenders/service.js';
import { requireContenderSpec } from '../../src/contenders/spec.js';
import { ensembleDown, ensembleUp } from '../../src/ensemble/service.js';
import { applyIsolate } from '../../src/faults/kinds/isolate.js';
import { applyHeal } from '../../src/faults/kinds/heal.js';
import { LabPaths } from '../../src/lab/paths.js';
import { readState } from '../../src/lab/state.js';
import { PACKAGE_ROOT } from '../../src/templates.js';
import { netLeft, netnsNames } from '../helpers/kernel-net.js';
import { benchLinks } from './net.js';
import { benchDir } from './bench-lab.js';
import { type BenchOptions, type BenchRow, median, percentile, sized } from './types.js';

const ECHO = join(PACKAGE_ROOT, 'test', 'programs', 'echo_node.py');
const PORT = 7070;

/** `up`s of each net, reads per turn, rounds of turns, isolations of each net. */
const sizes = (opts: BenchOptions) => ({
  ups: sized(opts, 5, 1),
  reads: sized(opts, 1000, 10),
  rounds: sized(opts, 4, 1),
  cuts: sized(opts, 10, 1),
});
type Sizes = ReturnType<typeof sizes>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const newLab = (name: string) => new LabPaths(`${benchDir(name)}/lab`);

const prefixesNow = (): Set<string> => new Set(netnsNames().flatMap((n) => /^(zl[0-9a-f]{8})-zk1$/.exec(n)?.[1] ?? []));

/** The prefix of the lab made since `before`, read from its namespaces (not from the code under test). */
function prefixSince(before: Set<string>): string {
  const made = [...prefixesNow()].filter((p) => !before.has(p));
  if (made.length !== 1) throw new Error(`bench: expected one new lab's namespaces, found ${made.length}`);
  return made[0]!;
}

async function upTimes(ups: number): Promise<{ ns: number[]; proxy: number[]; down: number[] }> {
  const t = { ns: [] as number[], proxy: [] as number[], down: [] as number[] };
  for (let i = 0; i < ups; i++) {
    for (const net of i % 2 === 0 ? (['ns', 'proxy'] as const) : (['proxy', 'ns'] as const)) {
      const paths = newLab(`up-${net}`);
      try {
        const before = prefixesNow();
        const start = performance.now();
        await ensembleUp(paths, { servers: 3, net });
        t[net].push(performance.now() - start);
        if (net === 'ns') {
          const prefix = prefixSince(before);
          const down = performance.now();
          await ensembleDown(paths, { purge: true });
          while (netLeft(prefix).length > 0) {
            if (performance.now() - down > 10_000) throw new Error('bench: the ns lab left its network behind');
            await sleep(5);
          }
          t.down.push(performance.now() - down);
        }
      } finally {
        await ensembleDown(paths, { purge: true }).catch(() => undefined);
        rmSync(dirname(paths.root), { recursive: true, force: true });
      }
    }
  }
  return t;
}

const GETDATA_TIMES = join(PACKAGE_ROOT, 'test', 'bench', 'programs', 'getdata-times.ts');

/** One turn: a client process of its own (in `netOfPid`'s namespace when given) reading `reads` times. */
async function readTurn(connect: string, reads: number, netOfPid?: number): Promise<number[]> {
  const argv = [process.execPath, '--import', 'tsx', GETDATA_TIMES, connect, String(reads)];
  const r =
    netOfPid === undefined
      ? await execa(argv[0]!, argv.slice(1))
      : await execa('nsenter', ['-t', String(netOfPid), '-n', ...argv]);
  return JSON.parse(r.stdout) as number[];
}

/**
 * getData round trips per group of targets (one per server: servers of one lab differ by some percent among
 * themselves, and pooling all three keeps that from passing for a difference between nets). Every turn is a client
 * process of its own, so that no client's threads weigh on another's turn; turns alternate.
 */
async function readTimes(
  groups: Record<string, { connect: string; netOfPid?: number }[]>,
  { reads, rounds }: Sizes,
): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = Object.fromEntries(Object.keys(groups).map((k) => [k, []]));
  for (let round = 0; round < rounds; round++) {
    const order = Object.keys(groups);
    if (round % 2 === 1) order.reverse();
    for (const k of order) for (const t of groups[k]!) out[k]!.push(...(await readTurn(t.connect, reads, t.netOfPid)));
  }
  return out;
}

interface Echo {
  readonly pid: number;
  readonly addr: string;
  readonly udp: Record<string, number>;
  readonly last: Record<string, number>;
}

const echo = (dir: string, id: string): Echo | undefined => {
  try {
    return JSON.parse(readFileSync(join(dir, `${id}.json`), 'utf8')) as Echo;
  } catch {
    return undefined;
  }
};

/** Milliseconds by which datagrams still arrived after `partition isolate c1` returned (0: none did), and its durations. */
async function cutTimes(paths: LabPaths, dir: string, cuts: number): Promise<{ late: number[]; took: number[] }> {
  const out = { late: [] as number[], took: [] as number[] };
  for (let i = 0; i < cuts; i++) {
    const [c1, c2] = [echo(dir, 'c1')!, echo(dir, 'c2')!];
    const tag = `cut${i}`;
    const sender: ResultPromise = execa(
      'nsenter',
      ['-t', String(c2.pid), '-n', 'python3', ECHO, 'send', c1.addr, String(PORT), tag, '10000000'],
      { reject: false },
    );
    try {
      while ((echo(dir, 'c1')?.udp[tag] ?? 0) < 1000) await sleep(5);
      const start = performance.now();
      await applyIsolate(paths, 'c1');
      const returned = performance.timeOrigin + performance.now();
      out.took.push(performance.now() - start);
      await sleep(300);
      const last = (echo(dir, 'c1')!.last[tag] ?? 0) * 1000;
      out.late.push(Math.max(0, last - returned));
      await applyHeal(paths, 'c1');
    } finally {
      sender.kill('SIGKILL');
      await sender;
    }
  }
  return out;
}

async function proxyCutTimes(paths: LabPaths, cuts: number): Promise<number[]> {
  const took: number[] = [];
  for (let i = 0; i < cuts; i++) {
    const start = performance.now();
    await applyIsolate(paths, 'zk1');
    took.push(performance.now() - start);
    await applyHeal(paths, 'zk1');
  }
  return took;
}

export async function run(opts: BenchOptions): Promise<BenchRow[]> {
  const size = sizes(opts);
  const rows: BenchRow[] = [];
  const up = await upTimes(size.ups);
  const ratio = median(up.ns) / median(up.proxy);
  rows.push(
    { name: 'ensemble up 3 servers, proxy (median)', value: median(up.proxy), unit: 'ms' },
    { name: 'ensemble up 3 servers, ns (median)', value: median(up.ns), unit: 'ms' },
    { name: 'ensemble up ratio ns/proxy', value: ratio, unit: 'x', target: '≤ 1.1', pass: ratio <= 1.1 },
    {
      name: 'ensemble down (ns) → nothing of its net left (max)',
      value: Math.max(...up.down),
      unit: 'ms',
      target: '≤ 1000',
      pass: Math.max(...up.down) <= 1000,
    },
  );

  const ns = newLab('nodenet');
  const proxy = newLab('proxynet');
  const dir = benchDir('echo');
  try {
    await ensembleUp(ns, { servers: 3, net: 'ns' });
    await ensembleUp(proxy, { servers: 3 });
    const nsState = readState(ns)!;
    const pState = readState(proxy)!;
    const link = await benchLinks(proxy, pState, 3);
    const nsTarget = (s: (typeof nsState.servers)[number]) => `${nsState.nodeNet!.addrs[s.name]}:${s.clientPort}`;
    const reads = await readTimes(
      {
        direct: pState.servers.map((s) => ({ connect: `127.0.0.1:${s.clientPort}` })),
        proxy: link.ports.map((port) => ({ connect: `127.0.0.1:${port}` })),
        ns: nsState.servers.map((s) => ({ connect: nsTarget(s) })),
        // The same servers asked from inside each one's own namespace: no bridge in the path.
        nsLocal: nsState.servers.map((s) => ({ connect: nsTarget(s), netOfPid: s.pid })),
      },
      size,
    );
    for (const k of ['direct', 'proxy', 'ns', 'nsLocal'] as const) {
      rows.push(
        { name: `getData p50 ${k}`, value: median(reads[k]!), unit: 'ms' },
        { name: `getData p99 ${k}`, value: percentile(reads[k]!, 99), unit: 'ms' },
      );
    }
    const p50 = median(reads.ns!) / median(reads.direct!);
    const floor = median(reads.ns!) / median(reads.nsLocal!);
    const lab = median(reads.nsLocal!) / median(reads.direct!);
    rows.push(
      { name: 'getData p50 ratio ns/direct', value: p50, unit: 'x', target: '≤ 1.05', pass: p50 <= 1.05 },
      // The floor: the same servers, asked over the bridge and from inside their own namespaces, in the same run.
      { name: 'floor: getData p50, over the bridge / from inside the node', value: floor, unit: 'x' },
      {
        name: 'getData p50 ratio ns (from inside the node) / direct',
        value: lab,
        unit: 'x',
        target: '≤ 1.05',
        pass: lab <= 1.05,
      },
    );

    const spec = requireContenderSpec({
      count: 2,
      exec: ['python3', ECHO, 'serve', '{addr}', String(PORT), dir, '{id}'],
    });
    await spawnContenders(ns, spec);
    while (!echo(dir, 'c1') || !echo(dir, 'c2')) await sleep(20);
    const cuts = await cutTimes(ns, dir, size.cuts);
    const proxyTook = await proxyCutTimes(proxy, size.cuts);
    rows.push(
      {
        name: 'isolate returned → last datagram in (max)',
        value: Math.max(...cuts.late),
        unit: 'ms',
        target: '≤ 5',
        pass: Math.max(...cuts.late) <= 5,
      },
      { name: 'isolate command, ns (median)', value: median(cuts.took), unit: 'ms' },
      { name: 'isolate command, proxy (median)', value: median(proxyTook), unit: 'ms' },
    );
    return rows;
  } finally {
    for (const p of [ns, proxy]) {
      await ensembleDown(p, { purge: true }).catch(() => undefined);
      rmSync(dirname(p.root), { recursive: true, force: true });
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
