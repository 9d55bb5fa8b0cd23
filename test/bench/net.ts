/**
 * Issue 4: what a link proxy costs, and how fast a partitioned leader is replaced.
 * - p50/p99 of 1000 sequential create+delete pairs through a link vs directly to the same server (p50 ratio ≤ 1.15);
 * - 20 concurrent clients' throughput through links vs direct (ratio ≥ 0.9);
 * - time from `partition isolate zk-leader` to a new serving leader (by srvr).
 * Direct and linked runs alternate in blocks, so drift of a shared 2-core machine hits both alike.
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { probeSrvr } from '../../src/zk/four-letter.js';
import { ensembleDown, ensembleUp } from '../../src/ensemble/service.js';
import { zkLeader } from '../../src/faults/leader.js';
import { LabPaths } from '../../src/lab/paths.js';
import { readState, type LabState } from '../../src/lab/state.js';
import { withDaemon } from '../../src/net/control.js';
import type { LinkSpec } from '../../src/net/protocol.js';
import { applyIsolate } from '../../src/faults/kinds/isolate.js';
import { applyHeal } from '../../src/faults/kinds/heal.js';
import { ZkClient } from '../../src/zk/client.js';
import { benchDir } from './bench-lab.js';
import { type BenchOptions, type BenchRow, median, percentile, sized } from './types.js';

/** Latency pairs (in blocks of each side), concurrent clients and how long they run, leader isolations. */
const sizes = (opts: BenchOptions) => ({
  pairs: sized(opts, 1000, 10),
  block: sized(opts, 100, 5),
  clients: sized(opts, 20, 2),
  throughputMs: sized(opts, 4000, 200),
  failovers: sized(opts, 5, 1),
});
type Sizes = ReturnType<typeof sizes>;

const connect = (port: number) =>
  ZkClient.connect({ connect: `127.0.0.1:${port}`, sessionTimeoutMs: 10_000, connectTimeoutMs: 15_000 });

/** Bench-only client links (members the lab's rules never name), one per client; resolves their ports. */
export async function benchLinks(
  paths: LabPaths,
  state: LabState,
  count: number,
): Promise<{ ids: string[]; ports: number[]; targets: number[] }> {
  const specs: LinkSpec[] = Array.from({ length: count }, (_, i) => {
    const to = state.servers[i % state.servers.length]!;
    return {
      id: `client:bench${i}->${to.name}`,
      from: `bench${i}`,
      to: to.name,
      kind: 'client',
      listenPort: 0,
      targetHost: '127.0.0.1',
      targetPort: to.clientPort,
    };
  });
  const { links } = await withDaemon(paths, (ctl) => ctl.request({ op: 'add-links', links: specs }));
  return { ids: specs.map((s) => s.id), ports: links.map((l) => l.port), targets: specs.map((s) => s.targetPort) };
}

async function pair(zk: ZkClient, path: string): Promise<number> {
  const t = performance.now();
  await zk.create(path, '', 'persistent');
  await zk.delete(path);
  return performance.now() - t;
}

async function latency(
  direct: ZkClient,
  linked: ZkClient,
  { pairs, block }: Sizes,
): Promise<{ direct: number[]; linked: number[] }> {
  const out = { direct: [] as number[], linked: [] as number[] };
  for (let i = 0; i < block; i++) {
    await pair(direct, '/bench-warm-d');
    await pair(linked, '/bench-warm-l');
  }
  for (let b = 0; b < pairs / block; b++) {
    for (let i = 0; i < block; i++) out.direct.push(await pair(direct, '/bench-lat-d'));
    for (let i = 0; i < block; i++) out.linked.push(await pair(linked, '/bench-lat-l'));
  }
  return out;
}

/** create+delete pairs per second of `clients` running at once for `ms`. */
async function throughput(clients: readonly ZkClient[], tag: string, ms: number): Promise<number> {
  const end = performance.now() + ms;
  const counts = await Promise.all(
    clients.map(async (zk, i) => {
      let n = 0;
      while (performance.now() < end) {
        await pair(zk, `/bench-tp-${tag}-${i}`);
        n++;
      }
      return n;
    }),
  );
  return (counts.reduce((a, b) => a + b, 0) * 1000) / ms;
}

async function failover(paths: LabPaths, state: LabState): Promise<number> {
  const old = (await zkLeader(paths)).name;
  const others = state.servers.filter((s) => s.name !== old);
  const t0 = performance.now();
  await applyIsolate(paths, 'zk-leader');
  for (;;) {
    const modes = await Promise.all(others.map((s) => probeSrvr(s.clientPort, 300)));
    if (modes.some((m) => m.mode === 'leader')) break;
    if (performance.now() - t0 > 60_000) throw new Error('no new leader within 60 s of isolating the leader');
    await new Promise((r) => setTimeout(r, 20));
  }
  const took = performance.now() - t0;
  await applyHeal(paths);
  const deadline = performance.now() + 60_000;
  while (
    !(await Promise.all(state.servers.map((s) => probeSrvr(s.clientPort, 300)))).every(
      (m) => m.mode === 'leader' || m.mode === 'follower',
    )
  ) {
    if (performance.now() > deadline) throw new Error('the ensemble did not heal within 60 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  return took;
}

export async function run(opts: BenchOptions): Promise<BenchRow[]> {
  const size = sizes(opts);
  const { clients: concurrent, throughputMs } = size;
  const paths = new LabPaths(`${benchDir('net')}/lab`);
  const rows: BenchRow[] = [];
  const clients: ZkClient[] = [];
  try {
    await ensembleUp(paths, { servers: 3 });
    const state = readState(paths)!;

    const one = await benchLinks(paths, state, 1);
    const direct = await connect(one.targets[0]!);
    const linked = await connect(one.ports[0]!);
    clients.push(direct, linked);
    const lat = await latency(direct, linked, size);
    const p50 = { direct: median(lat.direct), linked: median(lat.linked) };
    rows.push(
      { name: 'create+delete p50 direct', value: p50.direct, unit: 'ms' },
      { name: 'create+delete p50 via link', value: p50.linked, unit: 'ms' },
      { name: 'create+delete p99 direct', value: percentile(lat.direct, 99), unit: 'ms' },
      { name: 'create+delete p99 via link', value: percentile(lat.linked, 99), unit: 'ms' },
      {
        name: 'p50 ratio link/direct',
        value: p50.linked / p50.direct,
        unit: 'x',
        target: '≤ 1.15',
        pass: p50.linked / p50.direct <= 1.15,
      },
    );

    const many = await benchLinks(paths, state, concurrent);
    const directs = await Promise.all(many.targets.map(connect));
    const linkeds = await Promise.all(many.ports.map(connect));
    clients.push(...directs, ...linkeds);
    await throughput([...directs, ...linkeds], 'warm', throughputMs);
    const tp = { direct: [] as number[], linked: [] as number[] };
    // ABBA order: a trend over time (JIT, caches, a neighbour's load) weighs on both sides alike.
    tp.direct.push(await throughput(directs, 'd', throughputMs));
    tp.linked.push(await throughput(linkeds, 'l', throughputMs));
    tp.linked.push(await throughput(linkeds, 'l', throughputMs));
    tp.direct.push(await throughput(directs, 'd', throughputMs));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const ratio = mean(tp.linked) / mean(tp.direct);
    rows.push(
      { name: `${concurrent} clients direct`, value: mean(tp.direct), unit: 'pairs/s' },
      { name: `${concurrent} clients via links`, value: mean(tp.linked), unit: 'pairs/s' },
      { name: 'throughput ratio link/direct', value: ratio, unit: 'x', target: '≥ 0.9', pass: ratio >= 0.9 },
    );
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await withDaemon(paths, (ctl) => ctl.request({ op: 'remove-links', ids: [...one.ids, ...many.ids] }));

    const times: number[] = [];
    for (let i = 0; i < size.failovers; i++) times.push(await failover(paths, state));
    rows.push(
      {
        name: 'isolate zk-leader → new serving leader (median)',
        value: median(times),
        unit: 'ms',
        target: '≤ 10000',
        pass: median(times) <= 10_000,
      },
      { name: 'isolate zk-leader → new serving leader (max)', value: Math.max(...times), unit: 'ms' },
    );
    return rows;
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await ensembleDown(paths, { purge: true });
    rmSync(dirname(paths.root), { recursive: true, force: true });
  }
}
