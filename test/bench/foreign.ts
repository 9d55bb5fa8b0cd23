/**
 * Issue 13: contenders of other kinds side by side with zklab's own recipe (spawn to joined, memory per contender),
 * and what the link proxy adds to a Curator client's getData (p50/p99, through a contender's proxies vs direct).
 */
import { execa } from 'execa';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type ContenderSpecInput, requireContenderSpec } from '../../src/contenders/spec.js';
import { spawnContenders, stopContenders } from '../../src/contenders/service.js';
import { locateCurator } from '../../src/contenders/adapters/curator-runtime.js';
import { ensembleDown, ensembleUp } from '../../src/ensemble/service.js';
import { LabPaths } from '../../src/lab/paths.js';
import { directConnectString, readState } from '../../src/lab/state.js';
import { PACKAGE_ROOT } from '../../src/templates.js';
import { benchDir } from './bench-lab.js';
import { type BenchOptions, type BenchRow, median, sized } from './types.js';

/** Contenders of each kind spawned at once, getData calls per client. */
const sizes = (opts: BenchOptions) => ({ each: sized(opts, 5, 1), gets: sized(opts, 3000, 50) });
const RAW = join(PACKAGE_ROOT, 'test', 'programs', 'raw_election.py');
const GETDATA = join(PACKAGE_ROOT, 'test', 'bench', 'programs', 'CuratorGetData.java');

/** RSS of every process in the contender's process group (a supervisor and its program, or a recipe alone), in MB. */
function groupRssMb(pgid: number): number {
  let kb = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2] !== String(pgid)) continue;
      kb += Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kb / 1024;
}

const KINDS: readonly { label: string; raw: Omit<ContenderSpecInput, 'count'> }[] = [
  { label: 'predecessor (zklab)', raw: { recipe: 'predecessor' } },
  { label: 'curator-latch', raw: { recipe: 'curator-latch' } },
  { label: 'kazoo-election', raw: { recipe: 'kazoo-election' } },
  {
    label: 'exec (python, kazoo client)',
    raw: { exec: ['/usr/bin/python3', RAW, '{connect}', '{path}', '{session}'] },
  },
];

function latencyLine(text: string): { p50Us: number; p99Us: number } {
  const m = /latency (\{.*\})/.exec(text);
  if (!m) throw new Error(`no latency line in:\n${text.slice(-2000)}`);
  return JSON.parse(m[1]!) as { p50Us: number; p99Us: number };
}

export async function run(opts: BenchOptions): Promise<BenchRow[]> {
  const { each, gets } = sizes(opts);
  const paths = new LabPaths(benchDir('foreign'));
  const rows: BenchRow[] = [];
  try {
    await ensembleUp(paths, { servers: 3, tickMs: 200 });
    let baseline: { perContender: number; rss: number } | undefined;
    for (const [k, kind] of KINDS.entries()) {
      // One spawn first, untimed: the Curator adapter compiles once per machine, and every JVM warms the page cache.
      await spawnContenders(paths, requireContenderSpec({ ...kind.raw, count: 1, path: `/bench-warm-${k}` }));
      const t0 = performance.now();
      const { spawned } = await spawnContenders(
        paths,
        requireContenderSpec({ ...kind.raw, count: each, path: `/bench-kind-${k}` }),
      );
      const perContender = (performance.now() - t0) / each;
      const rss = median(spawned.map((c) => groupRssMb(c.pid!)));
      baseline ??= { perContender, rss };
      rows.push({
        name: `${kind.label}: spawn to joined, per contender (${each} at once)`,
        value: perContender,
        unit: 'ms',
      });
      rows.push({
        name: `${kind.label}: RSS per contender, process group (median of ${each})`,
        value: rss,
        unit: 'MB',
      });
      if (k > 0) {
        rows.push({
          name: `${kind.label}: spawn time ÷ zklab's recipe`,
          value: perContender / baseline.perContender,
          unit: '×',
        });
        rows.push({ name: `${kind.label}: memory ÷ zklab's recipe`, value: rss / baseline.rss, unit: '×' });
      }
      await stopContenders(paths, 'all');
    }

    // The same Curator client, through a contender's own link proxies and then straight to the servers.
    const curator = await locateCurator();
    const java = curator.java.bin;
    const cp = curator.classpath.join(':');
    const { spawned } = await spawnContenders(
      paths,
      requireContenderSpec({
        count: 1,
        path: '/bench-getdata-c',
        exec: [java, '-cp', cp, GETDATA, '{connect}', String(gets)],
      }),
    );
    const id = spawned[0]!.id;
    const deadline = Date.now() + 120_000;
    let log = '';
    while (!/latency \{/.test(log) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      log = readFileSync(paths.contenderLog(id), 'utf8');
    }
    const proxied = latencyLine(log);
    const direct = latencyLine(
      (await execa(java, ['-cp', cp, GETDATA, directConnectString(readState(paths)!), String(gets)])).stdout,
    );
    rows.push({ name: `Curator getData p50, direct (${gets} calls)`, value: direct.p50Us, unit: 'µs' });
    rows.push({ name: `Curator getData p50, through the link proxy`, value: proxied.p50Us, unit: 'µs' });
    rows.push({ name: `Curator getData p99, direct`, value: direct.p99Us, unit: 'µs' });
    rows.push({ name: `Curator getData p99, through the link proxy`, value: proxied.p99Us, unit: 'µs' });
    rows.push({ name: 'Curator getData p50: proxied ÷ direct', value: proxied.p50Us / direct.p50Us, unit: '×' });
    rows.push({ name: 'Curator getData p99: proxied ÷ direct', value: proxied.p99Us / direct.p99Us, unit: '×' });
    await stopContenders(paths, 'all');
  } finally {
    await ensembleDown(paths, { purge: true });
    rmSync(paths.root, { recursive: true, force: true });
  }
  return rows;
}
