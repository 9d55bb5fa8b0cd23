/**
 * Issue 34: hosts over SSH, on a sandbox of three local hosts, against the node network (`--net ns`) in the same
 * run:
 * - `ensemble up` of 3 servers, hosts vs ns (alternating), in this process (no CLI);
 * - failover: from the start of `kill zk-leader` to another server saying `Mode: leader` (srvr every 5 ms); and
 *   from the start of `kill leader` (a contender) to ZooKeeper naming another contender's session;
 * - a fault applied on a host: from the command's start to its rule in the host's kernel, as the host itself
 *   timestamps it (`nft monitor` on the host, `date` at the first rule line; the sandbox shares this machine's
 *   clock). In this process, and from a `zklab partition isolate` CLI's start, beside the CLI's own start-up
 *   (`--help`), which no fault can beat;
 * - the floors of SSH here: a connection of its own (key exchange: what `up` pays once per host, for its master), and
 *   a command over the lab's master (what a fault or a kill pays).
 */
import { execa } from 'execa';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ensembleDown, ensembleUp } from '../../src/ensemble/service.js';
import { applyHeal } from '../../src/faults/kinds/heal.js';
import { applyIsolate } from '../../src/faults/kinds/isolate.js';
import { applyKill } from '../../src/faults/kinds/kill.js';
import { loadHostsFile } from '../../src/hosts/hosts-file.js';
import { makeSandbox, removeSandbox } from '../../src/hosts/sandbox.js';
import { LabPaths } from '../../src/lab/paths.js';
import { netTable } from '../../src/lab/node/net.js';
import { directConnectString, nodeHost, readState } from '../../src/lab/state.js';
import { openObserver } from '../../src/zk/observer.js';
import type { ZkPort } from '../../src/zk/port.js';
import { ZKLAB_BIN } from '../helpers/cli.js';
import { fourLetter, srvrMode } from '../helpers/zk-raw.js';
import { type SandboxHost, sandboxSsh } from '../helpers/sandbox-hosts.js';
import { benchDir } from './bench-lab.js';
import { type BenchOptions, type BenchRow, median, sized } from './types.js';

const sizes = (opts: BenchOptions) => ({ ups: sized(opts, 5, 1), cuts: sized(opts, 10, 1) });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function modes(paths: LabPaths): Promise<Map<string, string | null>> {
  const state = readState(paths)!;
  const out = new Map<string, string | null>();
  await Promise.all(
    state.servers.map(async (s) => {
      const mode = await fourLetter(s.clientPort, 'srvr', nodeHost(state, s.name))
        .then(srvrMode)
        .catch(() => null);
      out.set(s.name, mode);
    }),
  );
  return out;
}

/** Milliseconds from the start of `kill zk-leader` to another server saying it leads. */
async function failover(paths: LabPaths): Promise<number> {
  const old = [...(await modes(paths))].find(([, m]) => m === 'leader')?.[0];
  if (!old) throw new Error('bench: no leader before the kill');
  const start = performance.now();
  await applyKill(paths, 'zk-leader', 'SIGKILL');
  for (;;) {
    const m = await modes(paths);
    if ([...m].some(([n, x]) => n !== old && x === 'leader')) return performance.now() - start;
    if (performance.now() - start > 60_000) throw new Error('bench: no new leader within 60 s');
    await sleep(5);
  }
}

/** The session owning the lowest sequential child of /election, by ZooKeeper's own word: who leads there. */
async function electionLeader(zk: ZkPort): Promise<string | null> {
  const children = (await zk.getChildren('/election').catch(() => [])).sort(
    (a, b) => Number(a.slice(-10)) - Number(b.slice(-10)),
  );
  for (const c of children) {
    const stat = await zk.exists(`/election/${c}`).catch(() => null);
    if (stat) return stat.ephemeralOwner;
  }
  return null;
}

/**
 * Spawns 3 contenders (the CLI, as a user would: on hosts the first spawn sends the runtime) and times, from the
 * start of `kill leader`, until ZooKeeper names another contender's session: its old session expires first, so this
 * is the session timeout (2 s) plus what the lab adds.
 */
async function contenderFailover(paths: LabPaths): Promise<{ spawnMs: number; failoverMs: number }> {
  const t0 = performance.now();
  await execa(process.execPath, [ZKLAB_BIN, 'contenders', 'spawn', '3', '--lab', paths.root]);
  const spawnMs = performance.now() - t0;
  const zk = await openObserver(directConnectString(readState(paths)!));
  try {
    const old = await electionLeader(zk);
    if (!old) throw new Error('bench: no contender leads before the kill');
    const start = performance.now();
    await applyKill(paths, 'leader', 'SIGKILL');
    for (;;) {
      const now = await electionLeader(zk);
      if (now !== null && now !== old) return { spawnMs, failoverMs: performance.now() - start };
      if (performance.now() - start > 60_000) throw new Error('bench: no new contender leader within 60 s');
      await sleep(5);
    }
  } finally {
    await zk.close();
  }
}

interface Runs {
  up: Record<'hosts' | 'ns', number[]>;
  failover: Record<'hosts' | 'ns', number[]>;
  spawn: Record<'hosts' | 'ns', number[]>;
  leaderFailover: Record<'hosts' | 'ns', number[]>;
}

async function upAndFailover(hostsFile: string, ups: number): Promise<Runs> {
  const t: Runs = {
    up: { hosts: [], ns: [] },
    failover: { hosts: [], ns: [] },
    spawn: { hosts: [], ns: [] },
    leaderFailover: { hosts: [], ns: [] },
  };
  for (let i = 0; i < ups; i++) {
    for (const net of i % 2 === 0 ? (['hosts', 'ns'] as const) : (['ns', 'hosts'] as const)) {
      const paths = new LabPaths(join(benchDir(`up-${net}`), 'lab'));
      try {
        const start = performance.now();
        await ensembleUp(
          paths,
          net === 'hosts'
            ? { servers: 3, hosts: { file: loadHostsFile(hostsFile), place: {} } }
            : { servers: 3, net: 'ns' },
        );
        t.up[net].push(performance.now() - start);
        t.failover[net].push(await failover(paths));
        const c = await contenderFailover(paths);
        t.spawn[net].push(c.spawnMs);
        t.leaderFailover[net].push(c.failoverMs);
      } finally {
        await ensembleDown(paths, { purge: true }).catch(() => undefined);
        rmSync(join(paths.root, '..'), { recursive: true, force: true });
      }
    }
  }
  return t;
}

const PROBE =
  'table inet zlprobe {\n chain input {\n  type filter hook input priority 0;\n  tcp dport 9 accept\n }\n}\ndelete table inet zlprobe\n';

/**
 * Started on the host before the fault: prints the host's clock (epoch ns) when the first rule of `table` is added.
 * It is ready once it has seen a probe rule of its own (nft monitor says nothing when it starts listening).
 */
async function watchRule(h: SandboxHost, knownHosts: string, table: string): Promise<{ at: Promise<number> }> {
  // nft's output to a pipe is block-buffered: a line at a time, or the first rule is seen only when the buffer fills.
  const script =
    'stdbuf -oL nft monitor rules | while read -r line; do case "$line" in ' +
    `*"add rule inet zlprobe "*) echo ready;; *"add rule inet ${table} "*) date +%s%N; exit 0;; esac; done`;
  const child = sandboxSsh(h, knownHosts, script);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 15_000;
  while (!out.includes('ready')) {
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error('bench: the rule watcher on the host never listened');
    await sandboxSsh(h, knownHosts, 'nft -f -', { input: PROBE });
    await sleep(50);
  }
  const at = (async () => {
    while (!/^\d{12,}$/m.test(out)) {
      if (Date.now() > deadline + 15_000) throw new Error('bench: the rule never reached the host');
      await sleep(5);
    }
    child.kill('SIGKILL');
    return Number(/^(\d{12,})$/m.exec(out)![1]) / 1e6;
  })();
  return { at };
}

async function faultTimes(
  paths: LabPaths,
  host: SandboxHost,
  knownHosts: string,
  cuts: number,
): Promise<{ inProcess: number[]; cli: number[]; cliStartup: number[] }> {
  const out = { inProcess: [] as number[], cli: [] as number[], cliStartup: [] as number[] };
  const table = netTable(paths);
  for (let i = 0; i < cuts; i++) {
    for (const how of i % 2 === 0 ? (['inProcess', 'cli'] as const) : (['cli', 'inProcess'] as const)) {
      const w = await watchRule(host, knownHosts, table);
      const start = Date.now();
      if (how === 'inProcess') await applyIsolate(paths, 'zk1');
      else await execa(process.execPath, [ZKLAB_BIN, 'partition', 'isolate', 'zk1', '--lab', paths.root]);
      out[how].push((await w.at) - start);
      await applyHeal(paths, 'zk1');
    }
    const s = performance.now();
    await execa(process.execPath, [ZKLAB_BIN, 'partition', 'isolate', '--help']);
    out.cliStartup.push(performance.now() - s);
  }
  return out;
}

/** What one SSH command costs here: a connection of its own (key exchange), and over the lab's master. */
async function sshFloor(
  paths: LabPaths,
  h: SandboxHost,
  knownHosts: string,
  n: number,
): Promise<{ direct: number[]; mux: number[] }> {
  const out = { direct: [] as number[], mux: [] as number[] };
  const mux = ['-o', 'ControlMaster=no', '-o', `ControlPath=${join(paths.sshDir, `${h.name}.sock`)}`];
  for (let i = 0; i < n; i++) {
    let t = performance.now();
    await sandboxSsh(h, knownHosts, 'true');
    out.direct.push(performance.now() - t);
    t = performance.now();
    await sandboxSsh(h, knownHosts, 'true', { extra: mux });
    out.mux.push(performance.now() - t);
  }
  return out;
}

export async function run(opts: BenchOptions): Promise<BenchRow[]> {
  const size = sizes(opts);
  const dir = benchDir('sandbox');
  const rows: BenchRow[] = [];
  try {
    const sandbox = await makeSandbox(dir, 3);
    const doc = parse(readFileSync(sandbox.hostsFile, 'utf8')) as { known_hosts: string; hosts: SandboxHost[] };
    const runs = await upAndFailover(sandbox.hostsFile, size.ups);
    const upRatio = median(runs.up.hosts) / median(runs.up.ns);
    const foRatio = median(runs.failover.hosts) / median(runs.failover.ns);
    const cfRatio = median(runs.leaderFailover.hosts) / median(runs.leaderFailover.ns);
    rows.push(
      { name: 'ensemble up 3 servers, ns (median)', value: median(runs.up.ns), unit: 'ms' },
      { name: 'ensemble up 3 servers on 3 sandbox hosts (median)', value: median(runs.up.hosts), unit: 'ms' },
      { name: 'ensemble up ratio hosts/ns', value: upRatio, unit: 'x', target: '≤ 1.5', pass: upRatio <= 1.5 },
      { name: 'kill zk-leader → new leader, ns (median)', value: median(runs.failover.ns), unit: 'ms' },
      { name: 'kill zk-leader → new leader, hosts (median)', value: median(runs.failover.hosts), unit: 'ms' },
      { name: 'failover ratio hosts/ns', value: foRatio, unit: 'x', target: '≤ 1.1', pass: foRatio <= 1.1 },
      {
        name: 'kill leader (a contender) → another leads, ns (median)',
        value: median(runs.leaderFailover.ns),
        unit: 'ms',
      },
      {
        name: 'kill leader (a contender) → another leads, hosts (median)',
        value: median(runs.leaderFailover.hosts),
        unit: 'ms',
      },
      {
        name: 'contender failover ratio hosts/ns',
        value: cfRatio,
        unit: 'x',
        target: '≤ 1.1',
        pass: cfRatio <= 1.1,
      },
      { name: 'contenders spawn 3 (CLI), ns (median)', value: median(runs.spawn.ns), unit: 'ms' },
      {
        name: 'contenders spawn 3 (CLI) on hosts (median; the first lab sends the runtime, the others link it)',
        value: median(runs.spawn.hosts),
        unit: 'ms',
      },
    );
    const paths = new LabPaths(join(benchDir('fault'), 'lab'));
    try {
      await ensembleUp(paths, { servers: 3, hosts: { file: loadHostsFile(sandbox.hostsFile), place: {} } });
      const host = doc.hosts.find((h) => h.name === readState(paths)!.hosts!.place.zk1)!;
      const f = await faultTimes(paths, host, doc.known_hosts, size.cuts);
      const ssh = await sshFloor(paths, host, doc.known_hosts, size.cuts);
      rows.push(
        {
          name: 'isolate → rule on the host, from the call (median)',
          value: median(f.inProcess),
          unit: 'ms',
          target: '≤ 100',
          pass: median(f.inProcess) <= 100,
        },
        { name: 'isolate → rule on the host, max', value: Math.max(...f.inProcess), unit: 'ms' },
        { name: 'isolate → rule on the host, from the CLI start (median)', value: median(f.cli), unit: 'ms' },
        { name: 'floor: the CLI start-up alone (--help, median)', value: median(f.cliStartup), unit: 'ms' },
        { name: 'floor: an SSH connection of its own (ssh host true, median)', value: median(ssh.direct), unit: 'ms' },
        { name: "a command over the lab's master connection (median)", value: median(ssh.mux), unit: 'ms' },
      );
    } finally {
      await ensembleDown(paths, { purge: true }).catch(() => undefined);
      rmSync(join(paths.root, '..'), { recursive: true, force: true });
    }
  } finally {
    await removeSandbox(dir);
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
