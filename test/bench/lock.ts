/**
 * Issue 15: the lock workload and priority pre-emption.
 * - Lock acquisitions per second with 5 contenders, zero hold and zero think.
 * - Release → next acquire: from a holder's `lock-released` (logged just before its delete goes out) to the next
 *   holder's `lock-acquired`, p50 and p99; goal p50 ≤ 5 ms. Beside it, in the same run, one client's create and
 *   delete of an ephemeral-sequential znode, back to back: the two writes a hand-over cannot do without.
 * - Priority pre-emption: a better contender joins (its `joined`) → it marks READY, takeover work of 0 ms.
 */
import { readEventFile } from '../../src/lab/event-log.js';
import type { ContenderEvent } from '../../src/lab/events.js';
import { requireContenderSpec } from '../../src/contenders/spec.js';
import { spawnContenders, stopContenders } from '../../src/contenders/service.js';
import type { LabPaths } from '../../src/lab/paths.js';
import type { ZkClient } from '../../src/zk/client.js';
import { until, withBenchLab } from './bench-lab.js';
import { type BenchOptions, type BenchRow, median, percentile, sized } from './types.js';

/** Create+delete pairs, acquisitions before the window and its length, pre-emptions. */
const sizes = (opts: BenchOptions) => ({
  roundTrips: sized(opts, 500, 10),
  warmUp: sized(opts, 200, 5),
  windowMs: sized(opts, 5000, 500),
  preemptions: sized(opts, 10, 1),
});

const eventsOf = (paths: LabPaths, ids: readonly string[]): ContenderEvent[] =>
  ids.flatMap((id) => readEventFile(paths.contenderEvents(id))).sort((a, b) => a.t - b.t);

/** One client, create then delete, one after the other: ms per pair. */
async function createDeleteRoundTrips(zk: ZkClient, roundTrips: number): Promise<number[]> {
  await zk.mkdirp('/bench-rt');
  const out: number[] = [];
  for (let i = 0; i < roundTrips; i++) {
    const t0 = performance.now();
    const p = await zk.create('/bench-rt/n-', '', 'ephemeral-sequential');
    await zk.delete(p, -1);
    out.push(performance.now() - t0);
  }
  return out;
}

export async function run(opts: BenchOptions): Promise<BenchRow[]> {
  const { roundTrips, warmUp, windowMs, preemptions } = sizes(opts);
  const rows: BenchRow[] = [];
  await withBenchLab('lock', async (paths, zk) => {
    await createDeleteRoundTrips(zk, roundTrips); // warm-up
    const pairs = await createDeleteRoundTrips(zk, roundTrips);
    rows.push({
      name: `baseline: one client's create + delete, back to back (p50 of ${roundTrips})`,
      value: median(pairs),
      unit: 'ms',
    });
    rows.push({ name: 'baseline: the same, p99', value: percentile(pairs, 99), unit: 'ms' });

    const { spawned } = await spawnContenders(
      paths,
      requireContenderSpec({ count: 5, workload: 'lock', path: '/bench-lock', hold: '0', think: '0' }),
    );
    const ids = spawned.map((c) => c.id);
    const acquired = () => eventsOf(paths, ids).filter((e) => e.event === 'lock-acquired').length;
    await until(() => acquired() >= warmUp, `a warm-up of ${warmUp} acquisitions`, 60_000);
    const from = Date.now();
    await new Promise((r) => setTimeout(r, windowMs));
    const to = Date.now();
    await stopContenders(paths, 'all');
    const events = eventsOf(paths, ids).filter((e) => e.t >= from && e.t < to);
    const acquisitions = events.filter((e) => e.event === 'lock-acquired');
    rows.push({
      name: 'lock acquisitions per second, 5 contenders, zero hold and think',
      value: acquisitions.length / ((to - from) / 1000),
      unit: '/s',
    });
    const gaps: number[] = [];
    for (const r of events.filter((e) => e.event === 'lock-released' && e.reason === 'done')) {
      const next = acquisitions.find((a) => a.t >= r.t && a.id !== r.id);
      if (next) gaps.push(next.t - r.t);
    }
    const p50 = median(gaps);
    rows.push({
      name: `release → next acquire, p50 of ${gaps.length}`,
      value: p50,
      unit: 'ms',
      target: '≤ 5',
      pass: p50 <= 5,
    });
    rows.push({ name: 'release → next acquire, p99', value: percentile(gaps, 99), unit: 'ms' });
    rows.push({
      name: 'release → next acquire p50 ÷ baseline create + delete p50',
      value: p50 / median(pairs),
      unit: '×',
    });

    const [base] = (
      await spawnContenders(
        paths,
        requireContenderSpec({ count: 1, recipe: 'priority', path: '/bench-prio', priorities: '1', takeoverMs: '0' }),
      )
    ).spawned;
    await until(
      () => readEventFile(paths.contenderEvents(base!.id)).some((e) => e.event === 'ready'),
      'the first leader READY',
      20_000,
    );
    const times: number[] = [];
    for (let i = 0; i < preemptions; i++) {
      const [better] = (
        await spawnContenders(
          paths,
          requireContenderSpec({ count: 1, recipe: 'priority', path: '/bench-prio', priorities: '9', takeoverMs: '0' }),
        )
      ).spawned;
      const own = () => readEventFile(paths.contenderEvents(better!.id));
      await until(() => own().some((e) => e.event === 'ready'), `pre-emption ${i + 1} READY`, 20_000);
      const joined = own().find((e) => e.event === 'joined')!.t;
      times.push(own().find((e) => e.event === 'ready')!.t - joined);
      await stopContenders(paths, [better!.id]);
      await until(
        () => readEventFile(paths.contenderEvents(base!.id)).filter((e) => e.event === 'ready').length > i + 1,
        `${base!.id} READY again`,
        20_000,
      );
    }
    rows.push({
      name: `priority pre-emption, joined → READY, takeover 0 ms (p50 of ${preemptions})`,
      value: median(times),
      unit: 'ms',
    });
    rows.push({ name: 'priority pre-emption, joined → READY, slowest', value: Math.max(...times), unit: 'ms' });
    await stopContenders(paths, 'all');
  });
  return rows;
}
