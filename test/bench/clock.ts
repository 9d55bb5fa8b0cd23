/**
 * Issue 32: the cost of every node being ready for a clock fault (zklab's clock shim preloaded, its clock file
 * mapped) with none applied, against the same lab with ZKLAB_CLOCK=off, both in the same run, in alternating rounds:
 * `ensemble up` of 3 servers, a server's getData p50 (asked by this process, which has no shim), a contender's spawn
 * to joined, and a contender's getData p50 (a client process started as a node is, shim and all). Target ≤ 1.05×.
 */
import { execa } from 'execa';
import { join } from 'node:path';
import { spawnContenders } from '../../src/contenders/service.js';
import { requireContenderSpec } from '../../src/contenders/spec.js';
import { ensembleDown, ensembleUp } from '../../src/ensemble/service.js';
import { installNodeStart, nodeStartPrep } from '../../src/faults/kinds/registry.js';
import { LabPaths } from '../../src/lab/paths.js';
import { directConnectString, readState } from '../../src/lab/state.js';
import { PACKAGE_ROOT } from '../../src/templates.js';
import { ZkClient } from '../../src/zk/client.js';
import { benchDir } from './bench-lab.js';
import { type BenchOptions, type BenchRow, median, sized } from './types.js';

const GETDATA_TIMES = join(PACKAGE_ROOT, 'test', 'bench', 'programs', 'getdata-times.ts');

type Mode = 'ready' | 'off';

interface Round {
  upMs: number;
  serverGetDataMs: number;
  joinMs: number;
  contenderGetDataMs: number;
}

async function round(mode: Mode, reads: number): Promise<Round> {
  if (mode === 'off') process.env.ZKLAB_CLOCK = 'off';
  else delete process.env.ZKLAB_CLOCK;
  const paths = new LabPaths(benchDir(`clock-${mode}`));
  try {
    let t0 = performance.now();
    await ensembleUp(paths, { servers: 3, tickMs: 200 });
    const upMs = performance.now() - t0;
    const connect = directConnectString(readState(paths)!);
    const zk = await ZkClient.connect({ connect, sessionTimeoutMs: 10_000, connectTimeoutMs: 10_000, quiet: true });
    const times: number[] = [];
    try {
      await zk.create('/bench-clock', 'x', 'persistent').catch(() => undefined);
      for (let i = 0; i < reads; i++) await zk.getData('/bench-clock');
      for (let i = 0; i < reads; i++) {
        const s = performance.now();
        await zk.getData('/bench-clock');
        times.push(performance.now() - s);
      }
    } finally {
      await zk.close();
    }
    t0 = performance.now();
    await spawnContenders(paths, requireContenderSpec({ count: 1, path: '/bench-clock-join' }));
    const joinMs = performance.now() - t0;
    // A client process with what a node starts with (nothing, with ZKLAB_CLOCK=off).
    const { env } = nodeStartPrep({ paths, node: 'bench-client' });
    const r = await execa(process.execPath, ['--import', 'tsx', GETDATA_TIMES, connect, String(reads)], {
      env: { ...process.env, ...env },
    });
    const contender = JSON.parse(r.stdout) as number[];
    return { upMs, serverGetDataMs: median(times), joinMs, contenderGetDataMs: median(contender) };
  } finally {
    await ensembleDown(paths, { purge: true }).catch(() => undefined);
    delete process.env.ZKLAB_CLOCK;
  }
}

export async function run(opts: BenchOptions): Promise<BenchRow[]> {
  const rounds = sized(opts, 5, 1);
  const reads = sized(opts, 500, 20);
  installNodeStart();
  const got: Record<Mode, Round[]> = { ready: [], off: [] };
  for (let i = 0; i < rounds; i++) {
    // Alternating which goes first, so that neither always meets a warmer machine.
    const order: Mode[] = i % 2 === 0 ? ['ready', 'off'] : ['off', 'ready'];
    for (const mode of order) got[mode].push(await round(mode, reads));
  }
  const measures: [keyof Round, string, string][] = [
    ['upMs', 'ensemble up (3 servers)', 'ms'],
    ['serverGetDataMs', "a server's getData p50", 'ms'],
    ['joinMs', "a contender's spawn to joined", 'ms'],
    ['contenderGetDataMs', "a contender's getData p50", 'ms'],
  ];
  return measures.flatMap(([key, name, unit]): BenchRow[] => {
    const ready = median(got.ready.map((r) => r[key]));
    const off = median(got.off.map((r) => r[key]));
    const ratio = ready / off;
    return [
      { name: `${name}, ready for clock faults`, value: ready, unit },
      { name: `${name}, ZKLAB_CLOCK=off`, value: off, unit },
      { name: `${name}: ready / off`, value: ratio, unit: '×', target: '≤ 1.05', pass: ratio <= 1.05 },
    ];
  });
}
