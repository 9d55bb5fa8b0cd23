import { isRecord } from '../validate.js';

/**
 * The task scheduler's znodes (seed 001) and what they hold. Every job is in exactly one of three places: waiting in
 * jobs/, given to a worker under assignments/<worker>/, or finished with a status/ node (briefly also still
 * assigned: the worker deletes its assignment last). Jobs are data a worker interprets, never code it runs.
 */

export const DEFAULT_SCHEDULER_PATH = '/scheduler';
export const DEFAULT_STATUS_TTL_MS = 30_000;

export const STRATEGIES = ['round-robin', 'random'] as const;
export type Strategy = (typeof STRATEGIES)[number];

export interface SchedulerLayout {
  readonly root: string;
  /** The workers' election (the predecessor recipe). */
  readonly election: string;
  /** Ephemeral, one per registered worker. */
  readonly workers: string;
  /** Persistent, one per job waiting for a worker. */
  readonly jobs: string;
  /** Persistent: assignments/<worker>/<job>. */
  readonly assignments: string;
  /** PERSISTENT_WITH_TTL, one per finished job. */
  readonly status: string;
  /** The round-robin position; its version is the compare-and-set that lets a new leader continue the rotation. */
  readonly rotation: string;
}

export function schedulerLayout(root: string): SchedulerLayout {
  const r = root === '/' ? '' : root.replace(/\/+$/, '');
  return {
    root: r || '/',
    election: `${r}/election`,
    workers: `${r}/workers`,
    jobs: `${r}/jobs`,
    assignments: `${r}/assignments`,
    status: `${r}/status`,
    rotation: `${r}/rotation`,
  };
}

/** The scheduler's root for a contender path (the workers' election is <root>/election). */
export function schedulerRootOf(electionPath: string): string | null {
  const m = /^(.*)\/election$/.exec(electionPath);
  return m ? m[1] || '/' : null;
}

/** Job names: persistent-sequential under jobs/, so the queue's order is the submission order. */
export const JOB_PREFIX = 'job-';

export const JOB_KINDS = ['sleep', 'sum', 'fail'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export type JobSpec =
  | { readonly kind: 'sleep'; readonly ms: number }
  | { readonly kind: 'sum'; readonly args: readonly number[] }
  | { readonly kind: 'fail'; readonly message?: string };

/** What jobs/<job> and assignments/<worker>/<job> hold. `attempt` counts assignments: 1 first, +1 per requeue. */
export interface JobData {
  readonly spec: JobSpec;
  readonly submittedAt: number;
  readonly attempt: number;
}

/** What status/<job> holds: the only place a client can learn the node's TTL (the server reports ephemeralOwner 0). */
export interface StatusData {
  readonly job: string;
  readonly worker: string;
  readonly contender: string;
  readonly attempt: number;
  readonly ok: boolean;
  readonly result?: number;
  readonly error?: string;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly ttlMs: number;
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** A job spec from untrusted data (a znode, the command line); an error text when it is not one. */
export function parseJobSpec(v: unknown): JobSpec | { error: string } {
  if (!isRecord(v) || typeof v.kind !== 'string') return { error: 'a job is an object with a kind' };
  switch (v.kind) {
    case 'sleep':
      if (!finite(v.ms) || v.ms < 0 || !Number.isInteger(v.ms))
        return { error: 'a sleep job needs ms, a whole number ≥ 0' };
      return { kind: 'sleep', ms: v.ms };
    case 'sum':
      if (!Array.isArray(v.args) || !v.args.every(finite)) return { error: 'a sum job needs args, a list of numbers' };
      return { kind: 'sum', args: v.args as number[] };
    case 'fail':
      return typeof v.message === 'string' ? { kind: 'fail', message: v.message } : { kind: 'fail' };
    default:
      return { error: `unknown job kind ${JSON.stringify(v.kind)} (choose one of ${JOB_KINDS.join(', ')})` };
  }
}

export function encodeJobData(d: JobData): string {
  return JSON.stringify(d);
}

/** null when the bytes are not a job this scheduler wrote. */
export function decodeJobData(bytes: Buffer | string): JobData | null {
  try {
    const v: unknown = JSON.parse(bytes.toString());
    if (!isRecord(v) || !finite(v.attempt) || !finite(v.submittedAt)) return null;
    const spec = parseJobSpec(v.spec);
    return 'error' in spec ? null : { spec, submittedAt: v.submittedAt, attempt: v.attempt };
  } catch {
    return null;
  }
}

export function encodeStatusData(d: StatusData): string {
  return JSON.stringify(d);
}

/** null when the bytes are not a status a worker wrote (then nothing about its TTL is known). */
export function decodeStatusData(bytes: Buffer | string): StatusData | null {
  try {
    const v: unknown = JSON.parse(bytes.toString());
    if (!isRecord(v)) return null;
    const { job, worker, contender, attempt, ok, startedAt, endedAt, ttlMs } = v;
    if (
      typeof job !== 'string' ||
      typeof worker !== 'string' ||
      typeof contender !== 'string' ||
      typeof ok !== 'boolean'
    )
      return null;
    if (!finite(attempt) || !finite(startedAt) || !finite(endedAt) || !finite(ttlMs)) return null;
    return {
      job,
      worker,
      contender,
      attempt,
      ok,
      startedAt,
      endedAt,
      ttlMs,
      ...(finite(v.result) ? { result: v.result } : {}),
      ...(typeof v.error === 'string' ? { error: v.error } : {}),
    };
  } catch {
    return null;
  }
}

/** A worker's name: its contender and how many times it has registered (a new session, a new name). */
export function workerName(contender: string, generation: number): string {
  return `${contender}-${generation}`;
}

/** The contender a worker name belongs to, or null. */
export function contenderOfWorker(worker: string): string | null {
  const m = /^(.+)-(\d+)$/.exec(worker);
  return m ? m[1]! : null;
}

/** Workers in a stable order for the rotation: by contender number, then registration. */
export function sortWorkers(workers: readonly string[]): string[] {
  const key = (w: string): [number, string, number] => {
    const m = /^([a-z]*)(\d+)-(\d+)$/.exec(w);
    return m ? [Number(m[2]), m[1]!, Number(m[3])] : [Number.MAX_SAFE_INTEGER, w, 0];
  };
  return [...workers].sort((a, b) => {
    const [an, as, ag] = key(a);
    const [bn, bs, bg] = key(b);
    return an - bn || (as < bs ? -1 : as > bs ? 1 : 0) || ag - bg || (a < b ? -1 : a > b ? 1 : 0);
  });
}
