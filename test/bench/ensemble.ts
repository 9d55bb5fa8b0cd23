/** Issue 2: `zklab ensemble up` against launching the same JVMs by hand; `down`. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { execa } from 'execa';
import { join } from 'node:path';
import { findJava, findZooKeeper } from '../../src/ensemble/discover.js';
import { probeSrvr } from '../../src/ensemble/fourlw.js';
import { serverJvmArgs } from '../../src/ensemble/jvm.js';
import { writeServerFiles } from '../../src/ensemble/lab-files.js';
import { LabPaths } from '../../src/lab/paths.js';
import { choosePorts } from '../../src/lab/ports.js';
import { stopProcesses } from '../../src/lab/procs.js';
import { serverName } from '../../src/ensemble/config.js';
import { PACKAGE_ROOT } from '../../src/templates.js';
import { median, type BenchRow } from './types.js';

const RUNS = 5;
const BIN = join(PACKAGE_ROOT, 'bin', 'zklab.js');

async function rawUp(servers: number): Promise<number> {
  const paths = new LabPaths(mkdtempSync('/tmp/zklab-bench-raw-'));
  const { plan } = await choosePorts(paths.root, servers);
  const records = plan.map((p) => ({ ...p, name: serverName(p.id) }));
  writeServerFiles(paths, records, 200);
  const java = findJava();
  const zk = findZooKeeper();
  const start = performance.now();
  const pids = records.map((s) => spawn(java.bin, serverJvmArgs({ java: java.bin, zk, configFile: paths.serverConfig(s.name), confDir: paths.confDir, logDir: paths.logDir, markers: [paths.jvmMarker] }), { stdio: 'ignore' }).pid!);
  for (;;) {
    const modes = await Promise.all(records.map((s) => probeSrvr(s.clientPort, 300)));
    if (modes.every((m) => ['leader', 'follower', 'standalone'].includes(m.mode))) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const took = performance.now() - start;
  await stopProcesses(pids, 'SIGKILL');
  rmSync(paths.root, { recursive: true, force: true });
  return took;
}

async function zklabUpDown(servers: number): Promise<{ up: number; down: number }> {
  const lab = mkdtempSync('/tmp/zklab-bench-lab-');
  const t0 = performance.now();
  await execa(process.execPath, [BIN, 'ensemble', 'up', '--servers', String(servers), '--lab', lab, '--json']);
  const up = performance.now() - t0;
  const t1 = performance.now();
  await execa(process.execPath, [BIN, 'ensemble', 'down', '--purge', '--lab', lab]);
  const down = performance.now() - t1;
  rmSync(lab, { recursive: true, force: true });
  return { up, down };
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const n of [3, 5]) {
    const raw: number[] = [];
    const ours: number[] = [];
    const downs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      raw.push(await rawUp(n));
      const r = await zklabUpDown(n);
      ours.push(r.up);
      downs.push(r.down);
    }
    const ratio = median(ours) / median(raw);
    rows.push({ name: `raw JVM launch to all modes, ${n} servers (median of ${RUNS})`, value: median(raw) / 1000, unit: 's' });
    rows.push({ name: `zklab ensemble up, ${n} servers`, value: median(ours) / 1000, unit: 's' });
    rows.push({ name: `zklab/raw, ${n} servers`, value: ratio, unit: 'x', target: n === 3 ? '≤ 1.25' : undefined, pass: n === 3 ? ratio <= 1.25 : undefined });
    rows.push({ name: `zklab ensemble down, ${n} servers`, value: median(downs) / 1000, unit: 's', target: n === 3 ? '≤ 1.5 s' : undefined, pass: n === 3 ? median(downs) <= 1500 : undefined });
  }
  return rows;
}
