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
import { median, percentile, type BenchRow } from './types.js';

const JOBS = 1000;
const WARM_UP = 200;
const CEILING_CREATES = 4000;
const STEADY_RATE = 100;
const STEADY_SECONDS = 5;

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

/** Creates per second from one client with every request in flight at once (in windows of 500). */
async function createCeiling(zk: ZkClient): Promise<number> {
  await zk.mkdirp('/bench-ceiling');
  const t0 = performance.now();
  for (let i = 0; i < CEILING_CREATES; i += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, CEILING_CREATES - i) }, () =>
        zk.create('/bench-ceiling/n-', '{"kind":"sleep","ms":0}', 'persistent-sequential'),
      ),
    );
  }
  return CEILING_CREATES / ((performance.now() - t0) / 1000);
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  await withBenchLab('scheduler', async (paths, observer) => {
    await createCeiling(observer); // warm-up: the JIT of the servers, the page cache
    // The median of three: one run on two busy cores varies by half.
    const ceiling = median([
      await createCeiling(observer),
      await createCeiling(observer),
      await createCeiling(observer),
    ]);
    rows.push({
      name: 'ceiling: async creates per second, one client, same ensemble (median of 3)',
      value: ceiling,
      unit: '/s',
    });

    for (const workers of [3, 10]) {
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
      await submitJobs(paths, { count: WARM_UP, spec: { kind: 'sleep', ms: 0 }, path: root });
      await until(() => done(WARM_UP), 'the warm-up jobs', 120_000);
      const t0 = performance.now();
      await submitJobs(paths, { count: JOBS, spec: { kind: 'sleep', ms: 0 }, path: root });
      await until(() => done(WARM_UP + JOBS), `${JOBS} status znodes`, 300_000);
      const perSecond = JOBS / ((performance.now() - t0) / 1000);
      rows.push({
        name: `${JOBS} zero-length jobs, ${workers} workers: jobs per second (submit to last status)`,
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
        name: `${workers} workers: RSS per worker after ${JOBS} jobs (median / max)`,
        value: median(rss),
        unit: `MB (max ${Math.max(...rss).toFixed(1)})`,
        target: '≤ 60',
        pass: Math.max(...rss) <= 60,
      });

      if (workers === 3) {
        // Steady arrivals: one job every 10 ms; latency from just before its create to its status znode's ctime.
        const steadyRoot = root;
        const submitted = new Map<string, number>();
        const pending: Promise<void>[] = [];
        const total = STEADY_RATE * STEADY_SECONDS;
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
        await until(() => done(WARM_UP + JOBS + total), 'the steady jobs done', 120_000);
        const latencies: number[] = [];
        for (const [job, at] of submitted)
          latencies.push((await observer.exists(`${steadyRoot}/status/${job}`))!.ctime - at);
        rows.push({
          name: `submit → status at a steady ${STEADY_RATE} jobs/s, 3 workers: p50`,
          value: percentile(latencies, 50),
          unit: 'ms',
        });
        rows.push({
          name: `submit → status at a steady ${STEADY_RATE} jobs/s, 3 workers: p99`,
          value: percentile(latencies, 99),
          unit: 'ms',
        });
      }
      await stopContenders(paths, 'all');
    }
  });
  return rows;
}
