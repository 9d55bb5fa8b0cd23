/** Issue 3: failover per recipe (KILL, TERM), herd size, join time, memory per contender. */
import { readFileSync, rmSync } from 'node:fs';
import { readEventFile } from '../../src/lab/event-log.js';
import * as faults from '../../src/faults/service.js';
import { resolveLeader } from '../../src/faults/leader.js';
import { requireContenderSpec } from '../../src/contenders/spec.js';
import { listContenders, spawnContenders, stopContenders } from '../../src/contenders/service.js';
import { ensembleDown, ensembleUp } from '../../src/ensemble/service.js';
import { LabPaths } from '../../src/lab/paths.js';
import type { RecipeName } from '../../src/recipes/types.js';
import { benchDir } from './bench-lab.js';
import { median, type BenchRow } from './types.js';

const TICK = 200;
const SESSION = 2000;
const KILLS = 10;

async function until<T>(probe: () => T | undefined | null | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('bench: condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function untilAsync<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('bench: condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function claimAfter(paths: LabPaths, ids: readonly string[], t: number): number | undefined {
  const claims = ids
    .flatMap((id) => readEventFile(paths.contenderEvents(id)))
    .filter((e) => e.event === 'leader' && e.t > t);
  return claims.length > 0 ? Math.min(...claims.map((e) => e.t)) : undefined;
}

async function failovers(paths: LabPaths, recipe: RecipeName, sig: 'SIGKILL' | 'SIGTERM'): Promise<number[]> {
  const path = `/bench-${recipe}-${sig}`;
  const ids = (
    await spawnContenders(
      paths,
      requireContenderSpec({ count: KILLS + 1, recipe, path, sessionTimeout: SESSION, takeoverMs: 0 }),
    )
  ).spawned.map((c) => c.id);
  await until(() => listContenders(paths).some((c) => c.path === path && c.state === 'leader'));
  const times: number[] = [];
  for (let i = 0; i < KILLS; i++) {
    const leader = await untilAsync(() =>
      resolveLeader(paths).then(
        (l) => l.contender.id,
        () => undefined,
      ),
    );
    const t0 = Date.now();
    await faults.kill(paths, leader, sig);
    const t1 = await until(
      () =>
        claimAfter(
          paths,
          ids.filter((id) => id !== leader),
          t0,
        ),
      30_000,
    );
    times.push(t1 - t0);
  }
  await stopContenders(
    paths,
    ids.filter((id) => listContenders(paths).find((c) => c.id === id)?.alive),
  );
  return times;
}

async function notificationsPerDeath(paths: LabPaths, recipe: RecipeName): Promise<number> {
  const path = `/bench-herd-${recipe}`;
  const ids = (await spawnContenders(paths, requireContenderSpec({ count: 10, recipe, path }))).spawned.map(
    (c) => c.id,
  );
  await until(() => listContenders(paths).filter((c) => c.path === path && c.state === 'follower').length === 9);
  const t0 = Date.now();
  await faults.kill(paths, 'leader', 'SIGTERM');
  await until(() => claimAfter(paths, ids, t0));
  await new Promise((r) => setTimeout(r, 500)); // let late notifications of this death arrive
  const n = ids
    .flatMap((id) => readEventFile(paths.contenderEvents(id)))
    .filter((e) => e.event === 'notified' && e.t > t0).length;
  await stopContenders(paths, 'all');
  return n;
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

export async function run(): Promise<BenchRow[]> {
  const paths = new LabPaths(benchDir('contenders'));
  const rows: BenchRow[] = [];
  try {
    await ensembleUp(paths, { servers: 3, tickMs: TICK });
    for (const recipe of ['predecessor', 'herd', 'single-file', 'priority'] as const) {
      const kill = median(await failovers(paths, recipe, 'SIGKILL'));
      const term = median(await failovers(paths, recipe, 'SIGTERM'));
      const killTarget = SESSION + 2 * TICK + 100;
      rows.push({
        name: `${recipe}: KILL failover (median of ${KILLS}; session ${SESSION} ms, ratio ${(kill / SESSION).toFixed(2)})`,
        value: kill,
        unit: 'ms',
        target: `≤ ${killTarget} ms`,
        pass: kill <= killTarget,
      });
      rows.push({
        name: `${recipe}: TERM failover (median of ${KILLS})`,
        value: term,
        unit: 'ms',
        target: '≤ 50 ms',
        pass: term <= 50,
      });
    }
    const chain = await notificationsPerDeath(paths, 'predecessor');
    const herd = await notificationsPerDeath(paths, 'herd');
    rows.push({
      name: 'predecessor: notifications per leader death, 10 contenders',
      value: chain,
      unit: 'count',
      target: '1',
      pass: chain === 1,
    });
    rows.push({
      name: 'herd: notifications per leader death, 10 contenders',
      value: herd,
      unit: 'count',
      target: '9 (N−1)',
      pass: herd === 9,
    });
    for (const n of [5, 50]) {
      const t0 = performance.now();
      const spawned = await spawnContenders(paths, requireContenderSpec({ count: n, path: `/bench-join-${n}` }));
      const took = performance.now() - t0;
      rows.push({
        name: `${n} contenders spawned and joined`,
        value: took / 1000,
        unit: 's',
        target: n === 50 ? '≤ 10 s' : undefined,
        pass: n === 50 ? took <= 10_000 : undefined,
      });
      if (n === 50) {
        const rss = spawned.spawned.map((c) => rssMb(c.pid!));
        rows.push({
          name: 'RSS per contender (median of 50)',
          value: median(rss),
          unit: 'MB',
          target: '≤ 60 MB',
          pass: Math.max(...rss) <= 60,
        });
        rows.push({ name: 'RSS per contender (max of 50)', value: Math.max(...rss), unit: 'MB' });
      }
      await stopContenders(paths, 'all');
    }
  } finally {
    await ensembleDown(paths, { purge: true });
    rmSync(paths.root, { recursive: true, force: true });
  }
  return rows;
}
