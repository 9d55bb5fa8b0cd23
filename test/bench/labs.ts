/**
 * Issue 12: from the SIGKILL of a lab's owner to the last process of the lab gone (the warden's work), beside
 * `ensemble down` of a lab of the same shape, both measured in this run.
 */
import { execa } from 'execa';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LabPaths } from '../../src/lab/paths.js';
import { findMarked, stopProcesses } from '../../src/lab/node/procs.js';
import { PACKAGE_ROOT } from '../../src/templates.js';
import { benchDir } from './bench-lab.js';
import { type BenchOptions, type BenchRow, median, sized } from './types.js';

const BIN = join(PACKAGE_ROOT, 'bin', 'zklab.js');

async function until(probe: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!probe()) {
    if (performance.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A drill that holds a 3-server lab with 3 contenders, killed with SIGKILL once its contenders run. */
async function ownerKill(dir: string, drillFile: string): Promise<number> {
  const paths = new LabPaths(join(dir, 'lab'));
  const run = execa(process.execPath, [BIN, 'drill', 'run', drillFile, '--lab', paths.root], {
    reject: false,
    stdin: 'ignore',
  });
  await until(() => existsSync(paths.contenderEvents('c3')) && findMarked(paths.markers).length >= 7, 60_000);
  const t0 = performance.now();
  run.kill('SIGKILL');
  await until(() => findMarked(paths.markers).length === 0, 20_000);
  const took = performance.now() - t0;
  await run;
  await stopProcesses(findMarked([paths.wardenMarker]), 'SIGKILL');
  return took;
}

/** The same shape as a long-lived lab: up, 3 contenders, then `ensemble down`. */
async function down(dir: string): Promise<number> {
  const lab = join(dir, 'long');
  try {
    await execa(process.execPath, [BIN, 'ensemble', 'up', '--lab', lab, '--json']);
    await execa(process.execPath, [BIN, 'contenders', 'spawn', '3', '--lab', lab]);
    const t0 = performance.now();
    await execa(process.execPath, [BIN, 'ensemble', 'down', '--purge', '--lab', lab]);
    return performance.now() - t0;
  } finally {
    await stopProcesses(findMarked(new LabPaths(lab).markers), 'SIGKILL');
  }
}

export async function run(opts: BenchOptions): Promise<BenchRow[]> {
  const trials = sized(opts, 10, 1);
  const dir = benchDir('labs');
  // The bench's labs are listed in a registry of their own, not among the developer's.
  const registry = process.env.ZKLAB_REGISTRY;
  process.env.ZKLAB_REGISTRY = join(dir, 'registry');
  const drillFile = join(dir, 'hold.yaml');
  writeFileSync(drillFile, 'name: hold\ncontenders: { count: 3, recipe: predecessor }\nsteps:\n  - sleep: 120s\n');
  const kills: number[] = [];
  const downs: number[] = [];
  try {
    for (let i = 0; i < trials; i++) {
      kills.push(await ownerKill(mkdtempSync(join(dir, 'k-')), drillFile));
      downs.push(await down(mkdtempSync(join(dir, 'd-'))));
    }
  } finally {
    if (registry === undefined) delete process.env.ZKLAB_REGISTRY;
    else process.env.ZKLAB_REGISTRY = registry;
    rmSync(dir, { recursive: true, force: true });
  }
  const worst = Math.max(...kills);
  return [
    {
      name: `owner SIGKILL → last lab process gone, 3 servers + 3 contenders (median of ${trials})`,
      value: median(kills) / 1000,
      unit: 's',
      target: '≤ 5 s',
      pass: worst <= 5000,
    },
    {
      name: `owner SIGKILL → last lab process gone, max of ${trials}`,
      value: worst / 1000,
      unit: 's',
      target: '≤ 5 s',
      pass: worst <= 5000,
    },
    { name: `ensemble down, same shape (median of ${trials})`, value: median(downs) / 1000, unit: 's' },
    { name: 'owner-death clean-up / ensemble down', value: median(kills) / median(downs), unit: 'x' },
  ];
}
