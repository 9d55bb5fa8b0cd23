/**
 * `zklab ensemble up` beside a raw launch of the same ensemble, in the same run, alternating; `down`.
 *
 * The raw launch is ZooKeeper as anyone would start it by hand: `java -cp <classpath> QuorumPeerMain zoo.cfg` with the
 * JVM's default flags (no -X/-XX options, no system properties), the same zoo.cfg with every peer directly on
 * loopback. `up` runs through bin/zklab.js, as a user runs it (node start, the link daemon, the lab's files included).
 *
 * A third launch, "zklab's flags direct", starts the same JVMs with zklab's server command line (src/ensemble/jvm.ts) but
 * without the CLI or the link daemon, peers directly on loopback: what the servers alone take, the floor for `up`.
 *
 * The breakdown (median over runs of the slowest server; ms from the moment the command or launch began):
 * raw from srvr probes (client port answering, serving); zklab from the servers' own logs (first line, client port
 * bound, election started, LEADING/FOLLOWING, synced: "broadcast") and their process start times.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { execa } from 'execa';
import { join } from 'node:path';
import { archivePlan } from '../../src/ensemble/class-data.js';
import { buildServerArchive } from '../../src/ensemble/class-data-build.js';
import { findJava, findZooKeeper } from '../../src/ensemble/discover.js';
import { serverJvmArgs } from '../../src/ensemble/jvm.js';
import { probeSrvr } from '../../src/zk/four-letter.js';
import { writeServerFiles } from '../../src/ensemble/lab-files.js';
import { LabPaths } from '../../src/lab/paths.js';
import { choosePorts, serverName } from '../../src/lab/ports.js';
import { stopProcesses } from '../../src/lab/node/procs.js';
import { readState } from '../../src/lab/state.js';
import { ensembleDown, ensembleUp } from '../../src/ensemble/service.js';
import { startDaemon } from '../../src/net/control.js';
import { stopNetwork } from '../../src/net/lab-network.js';
import { PACKAGE_ROOT } from '../../src/templates.js';
import { benchDir } from './bench-lab.js';
import { type BenchOptions, type BenchRow, median, sized } from './types.js';

const BIN = join(PACKAGE_ROOT, 'bin', 'zklab.js');
const TARGET = 0.6;
/** What `up` may add to its own servers' start: the CLI, the link daemon and the lab's files. */
const OVER_DIRECT_TARGET = 1.15;

/** Runs of each launch per ensemble size, and the sizes; a full run's may be set from the environment. */
const sizes = (opts: BenchOptions) => ({
  runs: sized(opts, Number(process.env.ZKLAB_BENCH_UP_RUNS ?? 4), 1),
  servers: sized(opts, (process.env.ZKLAB_BENCH_UP_SIZES ?? '3,5').split(',').map(Number), [3]),
});
const QUORUM_MAIN = 'org.apache.zookeeper.server.quorum.QuorumPeerMain';

type Marks = Record<string, number>;

/** Per milestone, the slowest server's time (the ensemble is up when its last server is). */
function slowest(perServer: readonly Marks[]): Marks {
  const out: Marks = {};
  for (const m of perServer) for (const [k, v] of Object.entries(m)) out[k] = Math.max(out[k] ?? -Infinity, v);
  return out;
}

/**
 * `flags`: 'default' is a plain launch; 'zklab' is zklab's own server command line, launched without the CLI;
 * 'zklab+daemon' the same with the lab's link daemon starting beside the JVMs, as `up` starts it (on 2 cores the
 * booting JVMs leave it no idle core: its start-up is taken from theirs).
 */
async function rawUp(
  servers: number,
  flags: 'default' | 'zklab' | 'zklab+daemon' = 'default',
): Promise<{ up: number; marks: Marks }> {
  const paths = new LabPaths(benchDir('raw'));
  const { plan } = await choosePorts(paths.root, servers);
  const records = plan.map((p) => ({ ...p, name: serverName(p.id) }));
  writeServerFiles(paths, records, 200);
  const java = findJava();
  const zk = findZooKeeper();
  mkdirSync(paths.logDir, { recursive: true });
  const start = performance.now();
  const pids = records.map((s) => {
    const out = openSync(paths.serverLog(s.name), 'a');
    try {
      const args =
        flags === 'default'
          ? ['-cp', zk.classpath, QUORUM_MAIN, paths.serverConfig(s.name)]
          : serverJvmArgs({
              java: java.bin,
              zk,
              configFile: paths.serverConfig(s.name),
              confDir: paths.confDir,
              logDir: paths.logDir,
              markers: [],
            });
      return spawn(java.bin, args, {
        stdio: ['ignore', out, out],
        env: { ...process.env, JAVA_TOOL_OPTIONS: '', JDK_JAVA_OPTIONS: '' },
      }).pid!;
    } finally {
      closeSync(out);
    }
  });
  const daemon = flags === 'zklab+daemon' ? startDaemon(paths.root) : undefined;
  daemon?.catch(() => undefined);
  const marks: Marks[] = records.map(() => ({}));
  try {
    await daemon;
    for (;;) {
      const probes = await Promise.all(records.map((s) => probeSrvr(s.clientPort, 300)));
      const now = performance.now() - start;
      probes.forEach((p, i) => {
        if (p.mode !== 'down') marks[i]!.port ??= now;
        if (['leader', 'follower', 'standalone'].includes(p.mode)) marks[i]!.serving ??= now;
      });
      if (marks.every((m) => m.serving !== undefined) && probes.filter((p) => p.mode === 'leader').length === 1) break;
      if (now > 60_000)
        throw new Error(`the raw ensemble of ${servers} did not serve within 60 s (see ${paths.logDir})`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const took = performance.now() - start;
    return { up: took, marks: slowest(marks) };
  } finally {
    await stopProcesses(pids, 'SIGKILL');
    if (daemon) await stopNetwork(paths);
    rmSync(paths.root, { recursive: true, force: true });
  }
}

const LOG_MARKS: readonly [string, RegExp][] = [
  ['first log line', /./],
  ['client port bound', /binding to port/],
  ['election started', /New election\. My id/],
  ['LEADING/FOLLOWING', /Peer state changed: (leading|following)$/],
  ['synced (broadcast)', /Peer state changed: (leading|following) - broadcast/],
];

/** A log4j ISO8601 timestamp (the JVM's local time zone, as Node's) as epoch ms. */
function logTime(line: string): number | undefined {
  const m = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d),(\d{3})/.exec(line);
  return m ? new Date(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, +m[7]!).getTime() : undefined;
}

/** Milliseconds since boot now (10 ms resolution): the clock /proc gives process start times in. */
function uptimeMs(): number {
  return Math.round(Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * 1000);
}

/** When a process started, in ms since boot (10 ms resolution), from /proc. */
function processStartMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]) * 10; // CLK_TCK is 100 on Linux
  } catch {
    return undefined;
  }
}

/** Whether the process has the class-data archive mapped. */
function mapsArchive(pid: number, archive: string | undefined): boolean {
  try {
    return archive !== undefined && readFileSync(`/proc/${pid}/maps`, 'utf8').includes(archive);
  } catch {
    return false;
  }
}

/** A Node process that loads the CLI and `ensemble up`'s command, prints its help and exits (ms). */
async function cliStartUp(): Promise<number> {
  const t0 = performance.now();
  await execa(process.execPath, [BIN, 'ensemble', 'up', '--help']);
  return performance.now() - t0;
}

/**
 * `ensemble up` as the CLI runs it, called in this process (no Node start, no module loading): what the lab itself
 * adds to its servers (their links through the daemon's proxies, the daemon beside the booting JVMs, its files).
 */
async function upInProcess(servers: number): Promise<number> {
  const paths = new LabPaths(benchDir('inproc'));
  const t0 = performance.now();
  try {
    await ensembleUp(paths, { servers });
    return performance.now() - t0;
  } finally {
    await ensembleDown(paths, { purge: true });
    rmSync(paths.root, { recursive: true, force: true });
  }
}

async function zklabUpDown(
  servers: number,
  archive: string | undefined,
): Promise<{ up: number; down: number; marks: Marks; mapped: boolean }> {
  const lab = benchDir('lab');
  const paths = new LabPaths(lab);
  const wall0 = Date.now();
  const boot0 = uptimeMs();
  const t0 = performance.now();
  try {
    await execa(process.execPath, [BIN, 'ensemble', 'up', '--servers', String(servers), '--lab', lab, '--json']);
    const up = performance.now() - t0;
    const state = readState(paths)!;
    const perServer: Marks[] = state.servers.map((s) => {
      const m: Marks = {};
      const started = s.pid === undefined ? undefined : processStartMs(s.pid);
      if (started !== undefined) m['JVM launched'] = started - boot0;
      const lines = readFileSync(paths.serverLog(s.name), 'utf8').split('\n');
      for (const [k, re] of LOG_MARKS) {
        const line = lines.find((l) => logTime(l) !== undefined && re.test(l));
        if (line) m[k] = logTime(line)! - wall0;
      }
      return m;
    });
    const mapped = state.servers.every((s) => mapsArchive(s.pid!, archive));
    const t1 = performance.now();
    await execa(process.execPath, [BIN, 'ensemble', 'down', '--purge', '--lab', lab]);
    return { up, down: performance.now() - t1, marks: slowest(perServer), mapped };
  } catch (e) {
    await execa(process.execPath, [BIN, 'ensemble', 'down', '--purge', '--lab', lab]).catch(() => undefined);
    throw e;
  } finally {
    rmSync(lab, { recursive: true, force: true });
  }
}

function medianMarks(runs: readonly Marks[]): Map<string, number> {
  const keys = [...new Set(runs.flatMap((r) => Object.keys(r)))];
  return new Map(keys.map((k) => [k, median(runs.map((r) => r[k]).filter((v): v is number => v !== undefined))]));
}

export async function run(opts: BenchOptions): Promise<BenchRow[]> {
  const { runs, servers: ensembleSizes } = sizes(opts);
  const rows: BenchRow[] = [];
  // The archive is built once per Java and ZooKeeper (bin/setup does it); build it here too, before timing anything.
  const target = { java: findJava().bin, zk: findZooKeeper() };
  const b0 = performance.now();
  const archive =
    (await buildServerArchive(target)) ?? (archivePlan(target)?.exists ? archivePlan(target)!.path : undefined);
  rows.push({
    name: `class-data archive ${archive ? 'ready' : 'NOT available'} (built now if missing)`,
    value: (performance.now() - b0) / 1000,
    unit: 's',
  });
  for (const n of ensembleSizes) {
    const raw: number[] = [];
    const rawMarks: Marks[] = [];
    const direct: number[] = [];
    const directWithDaemon: number[] = [];
    const inProcess: number[] = [];
    const ours: number[] = [];
    const ourMarks: Marks[] = [];
    const downs: number[] = [];
    const cliStarts: number[] = [];
    let mapped = 0;
    for (let i = 0; i < runs; i++) {
      cliStarts.push(await cliStartUp());
      // Alternate which goes first, so that neither always runs right after the other's JVMs were torn down.
      const order =
        i % 2 === 0
          ? ['raw', 'zklab', 'direct', 'daemon', 'in-process']
          : ['in-process', 'daemon', 'direct', 'zklab', 'raw'];
      for (const which of order) {
        if (which === 'direct') {
          direct.push((await rawUp(n, 'zklab')).up);
        } else if (which === 'daemon') {
          directWithDaemon.push((await rawUp(n, 'zklab+daemon')).up);
        } else if (which === 'in-process') {
          inProcess.push(await upInProcess(n));
        } else if (which === 'raw') {
          const r = await rawUp(n);
          raw.push(r.up);
          rawMarks.push(r.marks);
        } else {
          const r = await zklabUpDown(n, archive);
          ours.push(r.up);
          ourMarks.push(r.marks);
          downs.push(r.down);
          if (r.mapped) mapped++;
        }
      }
    }
    const ratio = median(ours) / median(raw);
    rows.push({
      name: `raw default JVM launch to serving, ${n} servers (median of ${runs})`,
      value: median(raw) / 1000,
      unit: 's',
    });
    for (const [k, v] of medianMarks(rawMarks))
      rows.push({
        name: `  raw ${n}: ${k === 'port' ? 'client port answers' : 'serving'}`,
        value: Math.round(v),
        unit: 'ms',
      });
    rows.push({ name: `zklab ensemble up, ${n} servers (median of ${runs})`, value: median(ours) / 1000, unit: 's' });
    for (const [k, v] of medianMarks(ourMarks))
      rows.push({ name: `  zklab ${n}: ${k}`, value: Math.round(v), unit: 'ms' });
    rows.push({
      name: `  zklab ${n}: runs whose servers all mapped the class-data archive`,
      value: mapped,
      unit: `of ${runs}`,
    });
    rows.push({
      name: `zklab/raw, ${n} servers`,
      value: ratio,
      unit: 'x',
      target: `≤ ${TARGET}`,
      pass: ratio <= TARGET,
    });
    rows.push({
      name: `zklab's server flags launched direct (no CLI, no link daemon), ${n} servers (median of ${runs})`,
      value: median(direct) / 1000,
      unit: 's',
    });
    rows.push({
      name: `  the servers alone ÷ raw, ${n} servers: the floor for zklab/raw`,
      value: median(direct) / median(raw),
      unit: 'x',
    });
    const overDirect = median(ours) / median(direct);
    // What no `up` can go below: its servers launched direct, plus a Node process loading the CLI and the
    // command's modules before it can launch anything (`ensemble up --help` does that much and stops).
    rows.push({
      name: `  the CLI's own start-up (zklab ensemble up --help, median of ${runs})`,
      value: Math.round(median(cliStarts)),
      unit: 'ms',
    });
    rows.push({
      name: `  floor for up ÷ direct: (servers direct + the CLI's start-up) ÷ servers direct, ${n} servers`,
      value: (median(direct) + median(cliStarts)) / median(direct),
      unit: 'x',
    });
    // `up` on the link proxies cannot do without its daemon either: it must listen before the servers dial their
    // peers, so it starts while they boot.
    rows.push({
      name: `  the servers direct, their link daemon starting beside them (no CLI), ${n} servers (median of ${runs})`,
      value: median(directWithDaemon) / 1000,
      unit: 's',
    });
    rows.push({
      name: `  floor for up ÷ direct, with the daemon: (that + the CLI's start-up) ÷ servers direct, ${n} servers`,
      value: (median(directWithDaemon) + median(cliStarts)) / median(direct),
      unit: 'x',
    });
    // Where the rest goes: the same `up` without the CLI's process, beside the CLI's start-up.
    rows.push({
      name: `  ensemble up in process (no CLI: the lab's proxies, daemon and files), ${n} servers (median of ${runs})`,
      value: median(inProcess) / 1000,
      unit: 's',
    });
    rows.push({
      name: `  up in process ÷ servers direct, ${n} servers: what the lab on link proxies adds without the CLI`,
      value: median(inProcess) / median(direct),
      unit: 'x',
    });
    rows.push({
      name: `zklab ensemble up ÷ its own servers launched direct, ${n} servers`,
      value: overDirect,
      unit: 'x',
      target: `≤ ${OVER_DIRECT_TARGET}`,
      pass: overDirect <= OVER_DIRECT_TARGET,
    });
    rows.push({
      name: `zklab ensemble down, ${n} servers`,
      value: median(downs) / 1000,
      unit: 's',
      target: n === 3 ? '≤ 1.5 s' : undefined,
      pass: n === 3 ? median(downs) <= 1500 : undefined,
    });
  }
  return rows;
}
