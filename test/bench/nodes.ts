/**
 * Issue 26: a contender is a node. Node kill (the agent and a 5-process daemon) against the plain process-group kill
 * of as many processes beside it; pause until the node is frozen; `contenders stop --all` of 10 HA agents; the
 * prober's CPU for 10 contenders probed every 250 ms.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { spawnContenders, stopContenders } from '../../src/contenders/service.js';
import { requireContenderSpec } from '../../src/contenders/spec.js';
import { containment } from '../../src/lab/node/containment.js';
import { labNode, newLabContainment, spawnNode } from '../../src/lab/nodes.js';
import { killLabNodes } from '../../src/lab/node/group.js';
import { LabPaths } from '../../src/lab/paths.js';
import { childrenOf, cmdlineOf, spawnDetached } from '../../src/lab/node/procs.js';
import { emptyState, readState } from '../../src/lab/state.js';
import { PROGRAMS_DIR } from '../../src/templates.js';
import { benchDir, withBenchLab } from './bench-lab.js';
import { type BenchOptions, type BenchRow, median, sized } from './types.js';
import { liveProcesses } from '../helpers/node-processes.js';
import { freeTestPorts } from '../helpers/sockets.js';

const AGENT = join(PROGRAMS_DIR, 'ha_agent.py');
const PROBE = join(PROGRAMS_DIR, 'ha_probe.py');
const PYTHON = '/usr/bin/python3';

/** Kills of each kind, rounds of the spawn floor, HA agents and how long their probing is measured. */
const sizes = (opts: BenchOptions) => ({
  runs: sized(opts, 10, 1),
  floorRounds: sized(opts, 20, 2),
  agents: sized(opts, 10, 2),
  probingMs: sized(opts, 10_000, 1000),
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every live process whose command line names `dir` (the agent, its database and the workers), from /proc. */
const processesOf = (dir: string): number[] => liveProcesses((args) => args.includes(dir));

async function until(test: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await sleep(1);
  }
}

function lastBeat(dir: string, id: string): number {
  try {
    return Number(readFileSync(join(dir, `${id}.beat`), 'utf8').split(' ')[1]);
  } catch {
    return 0;
  }
}

/** Milliseconds from the kill until the last of the six processes is gone: one node, or one process group. */
async function killTimes(
  root: string,
  runs: number,
): Promise<{ node: number[]; group: number[]; pause: number[]; gapOk: boolean }> {
  const paths = new LabPaths(root);
  const state = { ...emptyState(), containment: newLabContainment() };
  const out = { node: [] as number[], group: [] as number[], pause: [] as number[], gapOk: true };
  const ports = await freeTestPorts(Array.from({ length: runs * 2 }, (_, k) => k));
  for (let i = 0; i < runs; i++) {
    for (const kind of ['node', 'group'] as const) {
      const dir = mkdtempSync(join(root, `${kind}-`));
      const args = [
        AGENT,
        'standalone',
        '--id',
        'b',
        '--dir',
        dir,
        '--port',
        String(ports + i * 2 + Number(kind === 'group')),
      ];
      const log = join(dir, 'log');
      const child =
        kind === 'node'
          ? spawnNode(paths, `n${i}`, state, PYTHON, args, log)
          : spawnDetached(PYTHON, [...args, '--same-group'], log);
      await until(() => processesOf(dir).length === 6, 'the agent and its 5-process database');
      await until(() => lastBeat(dir, 'b') > 0, 'a heartbeat');
      const node = labNode(paths, `n${i}`, state);
      if (kind === 'node') {
        // Pause: from the call until the kernel says the whole node is frozen; the database must not beat after.
        const t0 = performance.now();
        const wall0 = Date.now();
        await node.freeze(2000);
        out.pause.push(performance.now() - t0);
        await sleep(150);
        if (lastBeat(dir, 'b') > wall0 + (performance.now() - t0)) out.gapOk = false;
        node.thaw();
      }
      const pids = processesOf(dir);
      const t0 = performance.now();
      if (kind === 'node') await node.kill();
      else process.kill(-child.pid!, 'SIGKILL');
      await until(() => processesOf(dir).length === 0, 'every process to be gone');
      out[kind].push(performance.now() - t0);
      if (pids.length !== 6) throw new Error(`bench: ${pids.length} processes, 6 expected`);
      node.remove();
    }
  }
  return out;
}

/** CPU seconds (user + system) a process has used, from /proc (0 once it is gone). */
function cpuSeconds(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/** The probe shells of a prober: its children that run zklab's probe loop. */
const shellsOf = (pid: number): number[] => childrenOf(pid).filter((p) => cmdlineOf(p)?.includes('zklab-probe'));

/** The floor of a Node prober that starts each probe itself: CPU of spawning /usr/bin/true ten at a time every 250ms. */
async function nodeSpawnFloor(rounds: number): Promise<number> {
  const { spawn } = await import('node:child_process');
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  for (let round = 0; round < rounds; round++) {
    await Promise.all(
      Array.from(
        { length: 10 },
        () => new Promise((r) => spawn('/usr/bin/true', [], { stdio: 'ignore' }).on('exit', r)),
      ),
    );
    await sleep(250);
  }
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000 / (performance.now() - w0);
}

export async function run(opts: BenchOptions): Promise<BenchRow[]> {
  const { runs, floorRounds, agents, probingMs } = sizes(opts);
  const root = benchDir('nodes');
  const rows: BenchRow[] = [];
  try {
    const k = await killTimes(root, runs);
    const node = median(k.node);
    const group = median(k.group);
    rows.push(
      { name: `containment (${containment().kind})`, value: 0, unit: '' },
      {
        name: `node kill: agent + 5-process daemon, median of ${runs}`,
        value: node,
        unit: 'ms',
        target: '≤ 100',
        pass: node <= 100,
      },
      { name: `process-group kill of 6 processes, median of ${runs}`, value: group, unit: 'ms' },
      {
        name: 'node kill / process-group kill',
        value: node / group,
        unit: '×',
        target: '≤ 1.5',
        pass: node / group <= 1.5,
      },
      {
        name: `pause → node frozen, median of ${runs} (no heartbeat after)`,
        value: median(k.pause),
        unit: 'ms',
        target: '≤ 50',
        pass: median(k.pause) <= 50 && k.gapOk,
      },
    );
    rows.push({
      name: 'floor: Node spawning 10 no-op probes every 250ms itself (why probes run through shells)',
      value: (await nodeSpawnFloor(floorRounds)) * 100,
      unit: '% of a core',
    });
  } finally {
    await killLabNodes(new LabPaths(root), { ...containment() });
    rmSync(root, { recursive: true, force: true });
  }
  rows.push(
    ...(await withBenchLab('nodes', async (paths) => {
      const dir = benchDir('ha');
      // The databases of members c1..cN listen on base + n.
      const base = await freeTestPorts(Array.from({ length: agents }, (_, k) => k + 1));
      const spec = requireContenderSpec({
        count: agents,
        exec: [PYTHON, AGENT, 'agent', '--dir', dir, '--port-base', String(base)],
        path: '/bench-ha',
        leaderRule: 'single-node leader',
        probe: [PYTHON, PROBE, String(base), '{n}'],
      });
      await spawnContenders(paths, spec);
      await until(() => processesOf(dir).length === agents * 6, `${agents} agents and their databases`, 30_000);
      // The prober runs once a spawn with probes is made: its CPU and its shells' over seconds of probing every node
      // (the probes' own CPU is theirs, not zklab's).
      const prober = Number(readFileSync(paths.proberPidFile, 'utf8'));
      const probing = () => [prober, ...shellsOf(prober)].reduce((sum, pid) => sum + cpuSeconds(pid), 0);
      await until(() => shellsOf(prober).length === agents, 'a shell per probe', 5000);
      const c0 = probing();
      const w0 = performance.now();
      await sleep(probingMs);
      const cpu = (probing() - c0) / ((performance.now() - w0) / 1000);
      const t0 = performance.now();
      await stopContenders(paths, 'all');
      const stopMs = performance.now() - t0;
      const left = processesOf(dir).length;
      rmSync(dir, { recursive: true, force: true });
      if (readState(paths)?.contenders.length !== agents) throw new Error('bench: the lab lost its contenders');
      return [
        {
          name: `\`contenders stop --all\` of ${agents} HA nodes`,
          value: stopMs,
          unit: 'ms',
          target: '≤ 1000, nothing left',
          pass: stopMs <= 1000 && left === 0,
        },
        {
          name: `the prober's CPU, ${agents} contenders every 250ms`,
          value: cpu * 100,
          unit: '% of a core',
          target: '≤ 2',
          pass: cpu * 100 <= 2,
        },
      ];
    })),
  );
  return rows;
}
