/**
 * The scheduler's client side: submitting jobs and reading where each one is. The current state comes from
 * ZooKeeper's znodes; how many times a job ran comes from the workers' event logs (ZooKeeper keeps one status).
 */
import { UsageError } from '../errors.js';
import { readEventFile, recordLabEvent } from '../lab/event-log.js';
import type { LabPaths } from '../lab/paths.js';
import { directConnectString, readState, type LabState } from '../lab/state.js';
import { unlessGone } from '../zk/errors.js';
import { withObserver } from '../zk/observer.js';
import type { ZkPort } from '../zk/port.js';
import {
  contenderOfWorker,
  decodeJobData,
  decodeStatusData,
  DEFAULT_SCHEDULER_PATH,
  encodeJobData,
  JOB_PREFIX,
  schedulerLayout,
  sortWorkers,
  type JobSpec,
} from '../recipes/scheduler-layout.js';

export const MAX_SUBMIT = 100_000;

/** The scheduler root a command means: --path, else the one the lab's workers use, else the default. */
export function schedulerRoot(state: LabState | null, path: string | undefined): string {
  if (path !== undefined) return path;
  const roots = [...new Set((state?.contenders ?? []).flatMap((c) => (c.scheduler ? [c.scheduler.root] : [])))];
  if (roots.length > 1)
    throw new UsageError(`this lab has schedulers at ${roots.join(' and ')}`, 'say which with --path');
  return roots[0] ?? DEFAULT_SCHEDULER_PATH;
}

export function labConnect(paths: LabPaths): { state: LabState; connect: string } {
  const state = readState(paths);
  const connect = state ? directConnectString(state) : '';
  if (!state || connect === '')
    throw new UsageError(`there is no ensemble in ${paths.root}`, 'start one with `zklab ensemble up`');
  return { state, connect };
}

export interface SubmitResult {
  readonly root: string;
  readonly jobs: readonly string[];
  /** Workers registered when the jobs were queued; 0: they wait until one is. */
  readonly workers: number;
}

/** Queues `count` copies of `spec`, in order (persistent-sequential names), and records them in the lab's log. */
export async function submitJobs(
  paths: LabPaths,
  opts: { count: number; spec: JobSpec; path?: string },
): Promise<SubmitResult> {
  const { state, connect } = labConnect(paths);
  const root = schedulerRoot(state, opts.path);
  const l = schedulerLayout(root);
  const { jobs, workers } = await withObserver(connect, async (zk) => {
    await zk.mkdirp(l.jobs);
    const names: string[] = [];
    const data = encodeJobData({ spec: opts.spec, submittedAt: Date.now(), attempt: 1 });
    for (let i = 0; i < opts.count; i += 200) {
      const batch = Array.from({ length: Math.min(200, opts.count - i) }, () =>
        zk.create(`${l.jobs}/${JOB_PREFIX}`, data, 'persistent-sequential'),
      );
      names.push(...(await Promise.all(batch)).map((p) => p.slice(p.lastIndexOf('/') + 1)));
    }
    const live = await listOrEmpty(zk, l.workers);
    return { jobs: names, workers: live.length };
  });
  recordLabEvent(paths, 'jobs-submitted', { path: root, jobs, kind: opts.spec.kind });
  return { root, jobs, workers };
}

export interface JobsStatus {
  readonly root: string;
  readonly at: number;
  readonly workers: readonly {
    readonly worker: string;
    readonly contender: string | null;
    readonly assigned: number;
  }[];
  readonly pending: readonly {
    readonly job: string;
    readonly attempt: number | null;
    readonly waitingMs: number | null;
  }[];
  readonly assigned: readonly {
    readonly job: string;
    readonly worker: string;
    readonly live: boolean;
    readonly attempt: number | null;
    readonly sinceMs: number;
  }[];
  /**
   * Finished jobs with a status znode. `expiresInMs` is from the TTL the worker wrote in the node (ZooKeeper tells
   * no client a node's TTL); null when the node's data is not a worker's status.
   */
  readonly done: readonly {
    readonly job: string;
    readonly ok: boolean | null;
    readonly result: number | null;
    readonly error: string | null;
    readonly worker: string | null;
    readonly attempt: number | null;
    readonly ttlMs: number | null;
    readonly expiresInMs: number | null;
  }[];
  /** Completed runs per job, from the workers' event logs (more than one: at-least-once at work). */
  readonly executions: Readonly<Record<string, number>>;
}

/** Where every job of the scheduler at `root` is, by ZooKeeper; UsageError when there is no scheduler there. */
export async function jobsStatus(paths: LabPaths, path?: string): Promise<JobsStatus> {
  const { state, connect } = labConnect(paths);
  const root = schedulerRoot(state, path);
  const status = await withObserver(connect, (zk) => readJobsStatus(zk, root), 3000);
  if (!status)
    throw new UsageError(
      `there is no scheduler at ${root} in this lab's ensemble`,
      'start one with `zklab contenders spawn 3 --workload scheduler`, or name another with --path',
    );
  return { ...status, executions: executionsPerJob(paths, state, root) };
}

const listOrEmpty = async (zk: ZkPort, p: string): Promise<string[]> => (await unlessGone(zk.getChildren(p))) ?? [];

async function readJobsStatus(zk: ZkPort, root: string): Promise<Omit<JobsStatus, 'executions'> | null> {
  const l = schedulerLayout(root);
  if (!(await zk.exists(l.jobs))) return null;
  const now = Date.now();
  const workerNames = sortWorkers(await listOrEmpty(zk, l.workers));
  const live = new Set(workerNames);
  const data = (p: string) => unlessGone(zk.getData(p));
  const pending = await Promise.all(
    (await listOrEmpty(zk, l.jobs)).sort().map(async (job) => {
      const d = await data(`${l.jobs}/${job}`);
      const jd = d ? decodeJobData(d.data) : null;
      return { job, attempt: jd?.attempt ?? null, waitingMs: d ? now - d.stat.ctime : null };
    }),
  );
  const assigned: JobsStatus['assigned'][number][] = [];
  for (const w of await listOrEmpty(zk, l.assignments)) {
    for (const job of (await listOrEmpty(zk, `${l.assignments}/${w}`)).sort()) {
      const d = await data(`${l.assignments}/${w}/${job}`);
      if (!d) continue;
      assigned.push({
        job,
        worker: w,
        live: live.has(w),
        attempt: decodeJobData(d.data)?.attempt ?? null,
        sinceMs: now - d.stat.ctime,
      });
    }
  }
  const done = await Promise.all(
    (await listOrEmpty(zk, l.status)).sort().map(async (job) => {
      const d = await data(`${l.status}/${job}`);
      const s = d ? decodeStatusData(d.data) : null;
      return {
        job,
        ok: s?.ok ?? null,
        result: s?.result ?? null,
        error: s?.error ?? null,
        worker: s?.worker ?? null,
        attempt: s?.attempt ?? null,
        ttlMs: s?.ttlMs ?? null,
        // ZooKeeper reaps a TTL node once it has gone unmodified for its TTL (and the reaper has run).
        expiresInMs: s && d ? Math.max(0, d.stat.mtime + s.ttlMs - now) : null,
      };
    }),
  );
  const workers = workerNames.map((w) => ({
    worker: w,
    contender: contenderOfWorker(w),
    assigned: assigned.filter((a) => a.worker === w).length,
  }));
  return { root, at: now, workers, pending, assigned, done };
}

/** Completed runs per job by the lab's workers of the scheduler at `root`, from their event logs. */
export function executionsPerJob(paths: LabPaths, state: LabState | null, root: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of state?.contenders ?? []) {
    if (c.scheduler?.root !== root) continue;
    for (const e of readEventFile(paths.contenderEvents(c.id))) {
      if (e.event === 'job-finished') out[e.job] = (out[e.job] ?? 0) + 1;
    }
  }
  return out;
}
