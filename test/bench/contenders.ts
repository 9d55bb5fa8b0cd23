/** Issue 3: failover per recipe (KILL, TERM), herd size, join time, memory per contender. */
import { readFileSync, rmSync } from 'node:fs';
import { readEventFile } from '../../src/lab/event-log.js';
import { applyKill } from '../../src/faults/kinds/kill.js';
import { resolveLeader } from '../../src/faults/leader.js';
import { requireContenderSpec } from '../../src/contenders/spec.js';
import { listContenders, spawnContenders, stopContenders } from '../../src/contenders/service.js';
import { ensembleDown, ensembleUp } from '../../src/ensemble/service.js';
import { LabPaths } from '../../src/lab/paths.js';
import type { RecipeName } from '../../src/recipes/types.js';
import { benchDir } from './bench-lab.js';
import { type BenchOptions, type BenchRow, median, sized } from './types.js';

const TICK = 200;

/**
 * Kills per recipe and signal (a KILL waits out the session); contenders per herd count; the spawn sizes timed (the
 * last one's memory read too).
 */
const sizes = (opts: BenchOptions) => ({
  // 400 ms: the least ZooKeeper grants at tick 200 (two ticks); each KILL waits it out, four recipes in a row.
  session: sized(opts, 2000, 400),
  kills: sized(opts, 10, 1),
  herd: sized(opts, 10, 2),
  joins: sized(opts, [5, 50], [1, 2]),
});

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

async function failovers(
  paths: LabPaths,
  recipe: RecipeName,
  sig: 'SIGKILL' | 'SIGTERM',
  kills: number,
  session: number,
): Promise<number[]> {
  const path = `/bench-${recipe}-${sig}`;
  // A takeover of 0 ms makes a priority leader's failover comparable; the other recipes have no takeover to set.
  const takeover = recipe === 'priority' ? { takeoverMs: 0 } : {};
  const ids = (
    await spawnContenders(
      paths,
      requireContenderSpec({ count: kills + 1, recipe, path, sessionTimeout: session, ...takeover }),
    )
  ).spawned.map((c) => c.id);
  await until(() => listContenders(paths).some((c) => c.path === path && c.state === 'leader'));
  const times: number[] = [];
  for (let i = 0; i < kills; i++) {
    const leader = await untilAsync(() =>
      resolveLeader(paths).then(
        (l) => l.contender.id,
        () => undefined,
      ),
    );
    const t0 = Date.now();
    await applyKill(paths, leader, sig);
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

async function notificationsPerDeath(paths: LabPaths, recipe: RecipeName, count: number): Promise<number> {
  const path = `/bench-herd-${recipe}`;
  const ids = (await spawnContenders(paths, requireContenderSpec({ count, recipe, path }))).spawned.map((c) => c.id);
  await until(
    () => listContenders(paths).filter((c) => c.path === path && c.state === 'follower').length === count - 1,
  );
  const t0 = Date.now();
  await applyKill(paths, 'leader', 'SIGTERM');
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

export async function run(opts: BenchOptions): Promise<BenchRow[]> {
  const { session, kills, herd: herdSize, joins } = sizes(opts);
  const paths = new LabPaths(benchDir('contenders'));
  const rows: BenchRow[] = [];
  try {
    await ensembleUp(paths, { servers: 3, tickMs: TICK });
    for (const recipe of ['predecessor', 'herd', 'single-file', 'priority'] as const) {
      const kill = median(await failovers(paths, recipe, 'SIGKILL', kills, session));
      const term = median(await failovers(paths, recipe, 'SIGTERM', kills, session));
      const killTarget = session + 2 * TICK + 100;
      rows.push({
        name: `${recipe}: KILL failover (median of ${kills}; session ${session} ms, ratio ${(kill / session).toFixed(2)})`,
        value: kill,
        unit: 'ms',
        target: `≤ ${killTarget} ms`,
        pass: kill <= killTarget,
      });
      rows.push({
        name: `${recipe}: TERM failover (median of ${kills})`,
        value: term,
        unit: 'ms',
        target: '≤ 50 ms',
        pass: term <= 50,
      });
    }
    const chain = await notificationsPerDeath(paths, 'predecessor', herdSize);
    const herd = await notificationsPerDeath(paths, 'herd', herdSize);
    rows.push({
      name: `predecessor: notifications per leader death, ${herdSize} contenders`,
      value: chain,
      unit: 'count',
      target: '1',
      pass: chain === 1,
    });
    rows.push({
      name: `herd: notifications per leader death, ${herdSize} contenders`,
      value: herd,
      unit: 'count',
      target: `${herdSize - 1} (N−1)`,
      pass: herd === herdSize - 1,
    });
    const largest = joins.at(-1)!;
    for (const n of joins) {
      const t0 = performance.now();
      const spawned = await spawnContenders(paths, requireContenderSpec({ count: n, path: `/bench-join-${n}` }));
      const took = performance.now() - t0;
      rows.push({
        name: `${n} contenders spawned and joined`,
        value: took / 1000,
        unit: 's',
        target: n === largest ? '≤ 10 s' : undefined,
        pass: n === largest ? took <= 10_000 : undefined,
      });
      if (n === largest) {
        const rss = spawned.spawned.map((c) => rssMb(c.pid!));
        rows.push({
          name: `RSS per contender (median of ${n})`,
          value: median(rss),
          unit: 'MB',
          target: '≤ 60 MB',
          pass: Math.max(...rss) <= 60,
        });
        rows.push({ name: `RSS per contender (max of ${n})`, value: Math.max(...rss), unit: 'MB' });
      }
      await stopContenders(paths, 'all');
    }
  } finally {
    await ensembleDown(paths, { purge: true });
    rmSync(paths.root, { recursive: true, force: true });
  }
  return rows;
}
