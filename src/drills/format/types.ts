/** The words a drill is made of: its checks, contender states, targets and ensemble. Durations are milliseconds. */

export const CHECK_NAMES = [
  'singleLeader',
  'failoverTime',
  'herdSize',
  'liveness',
  'noLostJobs',
  'executionsPerJob',
  'statusTtl',
  'mutualExclusion',
  'fencedWrites',
  'lockProgress',
  'notificationsPerRelease',
  'preemption',
] as const;
export type CheckName = (typeof CHECK_NAMES)[number];
/** What a drill that names no checks is judged by: the election's four. */
export const DEFAULT_CHECKS = [
  'singleLeader',
  'failoverTime',
  'herdSize',
  'liveness',
] as const satisfies readonly CheckName[];
/** The checks that judge the scheduler's jobs: they need contenders with `workload: scheduler`. */
export const JOB_CHECKS = ['noLostJobs', 'executionsPerJob', 'statusTtl'] as const satisfies readonly CheckName[];
/** The checks that judge the lock workload: they need contenders with `workload: lock`. */
export const LOCK_CHECKS = [
  'mutualExclusion',
  'fencedWrites',
  'lockProgress',
  'notificationsPerRelease',
] as const satisfies readonly CheckName[];

/** A contender's state as the drill sees it; `frozen` is a lab SIGSTOP, `paused` a contender's own disconnect pause. */
export const CONTENDER_STATES = ['follower', 'leader', 'paused', 'frozen', 'dead'] as const;
export type ContenderState = (typeof CONTENDER_STATES)[number];

/** leader | zk-leader | all | c<N> | zk<N>; which are allowed depends on the field (see targets.ts). */
export type Target = string;

export interface EnsembleSpec {
  /** Voting servers. */
  readonly servers: number;
  /** Non-voting servers beside them (zk<servers+1>…). */
  readonly observers: number;
  readonly tick: number;
}

export interface CheckConfig {
  readonly singleLeader?: Record<string, never>;
  readonly failoverTime?: { readonly max?: number };
  readonly herdSize?: { readonly max?: number; readonly window?: number };
  readonly liveness?: { readonly within?: number };
  readonly noLostJobs?: { readonly within?: number };
  readonly executionsPerJob?: { readonly max?: number };
  readonly statusTtl?: { readonly slack?: number };
  readonly mutualExclusion?: Record<string, never>;
  readonly fencedWrites?: Record<string, never>;
  readonly lockProgress?: { readonly within?: number };
  readonly preemption?: { readonly within?: number };
  readonly notificationsPerRelease?: { readonly max?: number; readonly min?: number };
}
