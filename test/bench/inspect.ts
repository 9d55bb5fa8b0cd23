/** Issue 5: render of a 500-znode tree, change-to-frame latency, CPU of an idle live inspect. */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { execa } from 'execa';
import { requireContenderSpec } from '../../src/contenders/spec.js';
import { spawnContenders } from '../../src/contenders/service.js';
import { ensembleDown, ensembleUp } from '../../src/ensemble/service.js';
import { buildSnapshot } from '../../src/inspect/build-snapshot.js';
import type { SnapshotInput } from '../../src/inspect/snapshot-input.js';
import { InspectSource } from '../../src/inspect/source/inspect-source.js';
import { resolveInspectTarget } from '../../src/inspect/target.js';
import { LabPaths } from '../../src/lab/paths.js';
import { directConnectString, readState } from '../../src/lab/state.js';
import { PACKAGE_ROOT } from '../../src/templates.js';
import { ZkClient } from '../../src/zk/client.js';
import { benchDir } from './bench-lab.js';
import { type BenchOptions, type BenchRow, median, percentile, sized } from './types.js';
import { nextSnapshot } from '../helpers/snapshots.js';

const NOW = Date.now();

/** Timed renders (after warm-ups), create/delete pairs, contenders left idle and the seconds of idle measured. */
const sizes = (opts: BenchOptions) => ({
  warmUps: sized(opts, 10, 1),
  builds: sized(opts, 30, 2),
  frames: sized(opts, 60, 2),
  pairs: sized(opts, 40, 2),
  contenders: sized(opts, 5, 1),
  settleMs: sized(opts, 2000, 200),
  idleMs: sized(opts, 5000, 500),
});
type Sizes = ReturnType<typeof sizes>;

/** What `zklab inspect` renders with (src/inspect/entry.ts picks React's production build), unless loaded before. */
async function loadRenderer(): Promise<{
  renderInspectFrame: typeof import('../../src/inspect/render-text.js').renderInspectFrame;
  react: string;
}> {
  process.env.NODE_ENV ??= 'production';
  const { renderInspectFrame } = await import('../../src/inspect/render-text.js');
  const cache = (createRequire(import.meta.url)('node:module') as { _cache: Record<string, unknown> })._cache;
  const dev = Object.keys(cache).some(
    (k) =>
      k.endsWith('react-reconciler/cjs/react-reconciler.development.js') && (cache[k] as { loaded?: boolean }).loaded,
  );
  return { renderInspectFrame, react: dev ? 'React development build' : 'React production build' };
}

/** Raw facts of a 500-member predecessor election, as the source collects them. */
function election(count: number): SnapshotInput {
  const session = (i: number) => `100000a3f2c${i.toString(16).padStart(5, '0')}`;
  const name = (i: number) =>
    `${i.toString(16).padStart(8, '0')}-7f3a-4c1e-9d2b-5e6f7a8b9c0d-n_${String(i).padStart(10, '0')}`;
  const wchp = new Map<string, string[]>();
  for (let i = 1; i < count; i++) wchp.set(`/election/${name(i - 1)}`, [session(i)]);
  return {
    path: '/election',
    takenAt: NOW,
    znodes: [
      { path: '/election', stat: { czxid: 1, ctime: NOW - 60_000, ephemeralOwner: '0', dataLength: 0 }, data: '' },
      ...Array.from({ length: count }, (_, i) => ({
        path: `/election/${name(i)}`,
        stat: { czxid: 100 + i, ctime: NOW - (count - i) * 100, ephemeralOwner: session(i), dataLength: 40 },
        data: `{"id":"c${i + 1}","recipe":"predecessor"}`,
      })),
    ],
    contenders: Array.from({ length: count }, (_, i) => ({
      id: `c${i + 1}`,
      pid: 4000 + i,
      alive: true,
      recipe: 'predecessor',
      sessionId: session(i),
      state: i === 0 ? 'leader' : 'follower',
    })),
    servers: ['zk1', 'zk2', 'zk3'].map((n, i) => ({
      name: n,
      srvr: { mode: i === 0 ? 'leader' : 'follower', zxid: '0x100000200', connections: 170 },
      wchp: i === 0 ? wchp : new Map(),
    })),
    events: Array.from({ length: 200 }, (_, i) => ({
      t: NOW - 1000 + i,
      id: `c${(i % count) + 1}`,
      pid: 4000,
      session: session(i % count),
      znode: null,
      event: 'follower' as const,
    })),
  };
}

function timeIt(fn: () => void, runs: number, warmUps: number): number[] {
  for (let i = 0; i < warmUps; i++) fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    out.push(performance.now() - t0);
  }
  return out;
}

async function renderRows({ warmUps, builds, frames }: Sizes): Promise<BenchRow[]> {
  const { renderInspectFrame, react } = await loadRenderer();
  const input = election(500);
  const build = median(timeIt(() => buildSnapshot(input), builds, warmUps));
  const snapshot = buildSnapshot(input);
  const frame = timeIt(() => renderInspectFrame(snapshot, 140, 45, 250), frames, warmUps);
  return [
    {
      name: `render of a 500-znode tree, 140×45 frame (median of ${frames}; ${react})`,
      value: median(frame),
      unit: 'ms',
      target: '≤ 30 ms',
      pass: median(frame) <= 30,
    },
    { name: 'render of a 500-znode tree, 140×45 frame (p95)', value: percentile(frame, 95), unit: 'ms' },
    { name: `buildSnapshot of 500 znodes and contenders (median of ${builds})`, value: build, unit: 'ms' },
  ];
}

/** From issuing a create or delete to a rendered frame that shows it, through the watch path of a real source. */
async function latencyRows(paths: LabPaths, pairs: number): Promise<BenchRow[]> {
  const { renderInspectFrame } = await loadRenderer();
  const path = '/bench-latency';
  const zk = await ZkClient.connect({
    connect: directConnectString(readState(paths)!),
    sessionTimeoutMs: 4000,
    connectTimeoutMs: 10_000,
  });
  const source = InspectSource.start({ target: resolveInspectTarget({ paths, path }) });
  try {
    await zk.create(path, '', 'persistent');
    await nextSnapshot(source, (s) => s.exists, 'the election path', 10_000);
    const times: number[] = [];
    for (let i = 0; i < pairs; i++) {
      const t0 = performance.now();
      const created = await zk.create(`${path}/n_`, '', 'ephemeral-sequential');
      await nextSnapshot(source, (s) => s.nodes.some((n) => n.path === created), 'the new znode', 10_000, true).then(
        (s) => renderInspectFrame(s, 140, 45),
      );
      times.push(performance.now() - t0);
      const t1 = performance.now();
      await zk.delete(created);
      await nextSnapshot(source, (s) => !s.nodes.some((n) => n.path === created), 'the znode gone', 10_000, true).then(
        (s) => renderInspectFrame(s, 140, 45),
      );
      times.push(performance.now() - t1);
    }
    const p50 = median(times);
    return [
      {
        name: `change-to-frame latency, znode create/delete (p50 of ${2 * pairs})`,
        value: p50,
        unit: 'ms',
        target: '≤ 200 ms',
        pass: p50 <= 200,
      },
      { name: 'change-to-frame latency (p95)', value: percentile(times, 95), unit: 'ms' },
    ];
  } finally {
    await source.stop();
    await zk.close();
  }
}

const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime, stime
}

/** CPU of `zklab inspect` running live in a tmux terminal on contenders nobody disturbs, over `idleMs`. */
async function idleCpuRows(paths: LabPaths, { contenders, settleMs, idleMs }: Sizes): Promise<BenchRow[]> {
  const socket = `zklab-bench-inspect-${process.pid}`;
  const tmux = (...args: string[]) => execa('tmux', ['-L', socket, ...args], { reject: false, stdin: 'ignore' });
  if (spawnSync('tmux', ['-V']).status !== 0)
    return [{ name: 'idle live inspect CPU: skipped, tmux is not installed', value: NaN, unit: '%' }];
  try {
    await tmux(
      'new-session',
      '-d',
      '-s',
      'idle',
      '-x',
      '140',
      '-y',
      '45',
      process.execPath,
      `${PACKAGE_ROOT}/bin/zklab.js`,
      'inspect',
      '--lab',
      paths.root,
    );
    const pid = Number((await tmux('display-message', '-p', '-t', 'idle', '#{pane_pid}')).stdout.trim());
    // Past start-up (connect, first reads, JIT) before measuring.
    for (let i = 0; i < 60; i++) {
      if ((await tmux('capture-pane', '-p', '-t', 'idle')).stdout.includes('★ LEADER')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, settleMs));
    const ticks0 = cpuTicks(pid);
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, idleMs));
    const cpu = ((cpuTicks(pid) - ticks0) / CLK_TCK / ((performance.now() - t0) / 1000)) * 100;
    return [
      {
        name: `idle live inspect in tmux, ${contenders} contenders, ${idleMs / 1000} s (CPU of one core)`,
        value: cpu,
        unit: '%',
        target: '< 2 %',
        pass: cpu < 2,
      },
    ];
  } finally {
    await tmux('send-keys', '-t', 'idle', 'q');
    await tmux('kill-server');
  }
}

export async function run(opts: BenchOptions): Promise<BenchRow[]> {
  const size = sizes(opts);
  const rows = await renderRows(size);
  const paths = new LabPaths(`${benchDir('inspect')}/lab`);
  try {
    await ensembleUp(paths, { servers: 3, tickMs: 200 });
    await spawnContenders(paths, requireContenderSpec({ count: size.contenders }));
    rows.push(...(await latencyRows(paths, size.pairs)));
    rows.push(...(await idleCpuRows(paths, size)));
  } finally {
    await ensembleDown(paths, { purge: true });
    rmSync(dirname(paths.root), { recursive: true, force: true });
  }
  return rows;
}
