/**
 * Issue 14: the scheduler workload's throughput (1,000 zero-length jobs with 3 and 10 workers) and its latency at a
 * steady 100 jobs/s, beside the ceiling measured on the same ensemble in the same run: async creates per second from
 * one client. A job costs four writes (queue, assignment multi, status, unassign), so the goal is ≥ ¼ of the ceiling.
 * Memory per worker: RSS after the 1,000-job run.
 */
import { readFileSync } from 'node:fs';
import { requireContenderSpec } from '../../src/contenders/spec.js';
import { spawnContenders, stopContenders } from '../../src/contenders/service.js';
import { submitJobs } from '../../src/contenders/jobs.js';
import type { ZkClient } from '../../src/zk/client.js';
import { until, withBenchLab } from './bench-lab.js';
import { type BenchOptions, type BenchRow, median, percentile, sized } from './types.js';

const STEADY_RATE = 100;

/** Jobs timed (after a warm-up), creates per ceiling run, worker counts (the first also takes steady arrivals). */
const sizes = (opts: BenchOptions) => ({
  jobs: sized(opts, 1000, 20),
  warmUp: sized(opts, 200, 5),
  ceilingCreates: sized(opts, 4000, 100),
  workerCounts: sized(opts, [3, 10], [1, 2]),
  steadySeconds: sized(opts, 5, 0.2),
});

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

/** Creates per second from one client with every request in flight at once (in windows of 500). */
async function createCeiling(zk: ZkClient, creates: number): Promise<number> {
  await zk.mkdirp('/bench-ceiling');
  const t0 = performance.now();
  for (let i = 0; i < creates; i += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, creates - i) }, () =>
        zk.create('/bench-ceiling/n-', '{"kind":"sleep","ms":0}', 'persistent-sequential'),
      ),
    );
  }
  return creates / ((performance.now() - t0) / 1000);
}

export async function run(opts: BenchOptions): Promise<BenchRow[]> {
  const { jobs, warmUp, ceilingCreates, workerCounts, steadySeconds } = sizes(opts);
  const rows: BenchRow[] = [];
  await withBenchLab('scheduler', async (paths, observer) => {
    await createCeiling(observer, ceilingCreates); // warm-up: the JIT of the servers, the page cache
    // The median of three: one run on two busy cores varies by half.
    const ceiling = median([
      await createCeiling(observer, ceilingCreates),
      await createCeiling(observer, ceilingCreates),
      await createCeiling(observer, ceilingCreates),
    ]);
    rows.push({
      name: 'ceiling: async creates per second, one client, same ensemble (median of 3)',
      value: ceiling,
      unit: '/s',
    });

    for (const workers of workerCounts) {
      const root = `/bench-${workers}`;
      const { spawned } = await spawnContenders(
        paths,
        requireContenderSpec({ count: workers, workload: 'scheduler', path: root, statusTtl: '10m' }),
      );
      await until(
        async () => (await observer.getChildren(`${root}/workers`).catch(() => [])).length === workers,
        `${workers} workers`,
        30_000,
      );
      // The count from a stat (numChildren), not a listing: the watcher must not load the servers it measures.
      const done = async (n: number) => ((await observer.exists(`${root}/status`))?.numChildren ?? 0) >= n;
      // Warm-up, as the ceiling had: the workers' JIT, the leader's first (full) reconciliation.
      await submitJobs(paths, { count: warmUp, spec: { kind: 'sleep', ms: 0 }, path: root });
      await until(() => done(warmUp), 'the warm-up jobs', 120_000);
      const t0 = performance.now();
      await submitJobs(paths, { count: jobs, spec: { kind: 'sleep', ms: 0 }, path: root });
      await until(() => done(warmUp + jobs), `${jobs} status znodes`, 300_000);
      const perSecond = jobs / ((performance.now() - t0) / 1000);
      rows.push({
        name: `${jobs} zero-length jobs, ${workers} workers: jobs per second (submit to last status)`,
        value: perSecond,
        unit: '/s',
      });
      rows.push({
        name: `${workers} workers: jobs/s ÷ (ceiling ÷ 4)`,
        value: perSecond / (ceiling / 4),
        unit: '×',
        target: '≥ 1',
        pass: perSecond >= ceiling / 4,
      });
      const rss = spawned.map((c) => rssMb(c.pid!));
      rows.push({
        name: `${workers} workers: RSS per worker after ${jobs} jobs (median / max)`,
        value: median(rss),
        unit: `MB (max ${Math.max(...rss).toFixed(1)})`,
        target: '≤ 60',
        pass: Math.max(...rss) <= 60,
      });

      if (workers === workerCounts[0]) {
        // Steady arrivals: one job every 10 ms; latency from just before its create to its status znode's ctime.
        const steadyRoot = root;
        const submitted = new Map<string, number>();
        const pending: Promise<void>[] = [];
        const total = STEADY_RATE * steadySeconds;
        const start = Date.now();
        for (let i = 0; i < total; i++) {
          const due = start + (i * 1000) / STEADY_RATE;
          const wait = due - Date.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          const at = Date.now();
          pending.push(
            observer
              .create(
                `${steadyRoot}/jobs/job-`,
                JSON.stringify({ spec: { kind: 'sleep', ms: 0 }, submittedAt: at, attempt: 1 }),
                'persistent-sequential',
              )
              .then((p) => {
                submitted.set(p.slice(p.lastIndexOf('/') + 1), at);
              }),
          );
        }
        await Promise.all(pending);
        await until(() => done(warmUp + jobs + total), 'the steady jobs done', 120_000);
        const latencies: number[] = [];
        for (const [job, at] of submitted)
          latencies.push((await observer.exists(`${steadyRoot}/status/${job}`))!.ctime - at);
        rows.push({
          name: `submit → status at a steady ${STEADY_RATE} jobs/s, ${workers} workers: p50`,
          value: percentile(latencies, 50),
          unit: 'ms',
        });
        rows.push({
          name: `submit → status at a steady ${STEADY_RATE} jobs/s, ${workers} workers: p99`,
          value: percentile(latencies, 99),
          unit: 'ms',
        });
      }
      await stopContenders(paths, 'all');
    }
  });
  return rows;
}
