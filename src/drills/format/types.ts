/**
 * A parsed, validated drill. Durations are milliseconds; every step keeps the line it came from so the runner and
 * the report can point back at the file. See schema.ts for the YAML format.
 */

import type { FailpointAction } from '../../recipes/failpoint-names.js';
import type { JobSpec } from '../../recipes/scheduler-layout.js';
import type { ContenderSpec } from '../../contenders/spec.js';

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

export const SIGNALS = ['SIGKILL', 'SIGTERM', 'SIGINT'] as const;
export type KillSignal = (typeof SIGNALS)[number];

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

/** Every condition given must hold at once. `serving`/`notServing` need a 4lw probe, the rest come from events. */
export interface WaitCondition {
  /** true: some contender leads; false: none does. */
  readonly leader?: boolean;
  readonly leaderIs?: Target;
  /** At least this many contenders have joined and are alive. */
  readonly joined?: number;
  readonly serving?: Target;
  readonly notServing?: Target;
  /** true: every job submitted so far (at least one, no stream still submitting) has its status; N: at least N jobs have theirs. */
  readonly jobsDone?: true | number;
}

export type Expectation =
  /** A contender other than the leader before the latest fault step claims leadership within ms of that fault. */
  | { readonly kind: 'newLeaderWithin'; readonly ms: number }
  /** For ms from this step, no contender but the one leading when it starts claims leadership. */
  | { readonly kind: 'noLeaderChange'; readonly ms: number }
  | { readonly kind: 'leaderIs'; readonly contender: Target }
  | { readonly kind: 'leaderIsNot'; readonly contender: Target }
  /** Every leader death so far woke at most max other contenders. */
  | { readonly kind: 'notificationsPerDeath'; readonly max: number }
  | { readonly kind: 'state'; readonly contender: Target; readonly state: ContenderState }
  /** Every job submitted so far (a stream's included, once it ends) has its status within ms of this step. */
  | { readonly kind: 'allJobsDoneWithin'; readonly ms: number }
  /** Lock workload: every contender alive at the deadline acquires the lock within ms of this step. */
  | { readonly kind: 'everyoneAcquiresWithin'; readonly ms: number };

export type PartitionSpec =
  | { readonly mode: 'isolate'; readonly target: Target }
  | { readonly mode: 'split'; readonly groups: readonly (readonly Target[])[] };

interface StepBase {
  /** 1-based line of the step in the drill file. */
  readonly line: number;
}

export type Step = StepBase &
  (
    | { readonly kind: 'wait'; readonly until: WaitCondition; readonly timeout: number }
    | { readonly kind: 'kill'; readonly target: Target; readonly signal: KillSignal }
    | { readonly kind: 'pause'; readonly target: Target }
    | { readonly kind: 'resume'; readonly target: Target }
    | { readonly kind: 'partition'; readonly partition: PartitionSpec }
    | { readonly kind: 'heal'; readonly target: Target }
    | { readonly kind: 'delay'; readonly target: Target; readonly ms: number; readonly jitter: number }
    | { readonly kind: 'spawn'; readonly count: number }
    | { readonly kind: 'stop'; readonly target: Target }
    | { readonly kind: 'restart'; readonly target: Target }
    /** Starts a new server and joins it by dynamic reconfiguration (`zklab ensemble add`). */
    | { readonly kind: 'add'; readonly role: 'participant' | 'observer' }
    /** Removes a server by dynamic reconfiguration, then stops it (`zklab ensemble remove`). */
    | { readonly kind: 'remove'; readonly target: Target }
    | { readonly kind: 'sleep'; readonly ms: number }
    | { readonly kind: 'expect'; readonly expectations: readonly Expectation[] }
    | { readonly kind: 'repeat'; readonly times: number; readonly steps: readonly Step[] }
    /** Queues `count` jobs, or with `over` streams them evenly over that time in the background. */
    | { readonly kind: 'jobs'; readonly count: number; readonly spec: JobSpec; readonly over?: number }
    | { readonly kind: 'failpoint'; readonly target: Target; readonly at: string; readonly action: FailpointAction }
    /** Writes the priority election's policy znode as `zklab priority set` / `prefer-site` would. */
    | { readonly kind: 'priority'; readonly set?: Readonly<Record<Target, number>>; readonly preferSite?: string }
  );

export type StepKind = Step['kind'];

export interface Drill {
  /** The file it came from, as given to parseDrill (for messages). */
  readonly file: string;
  readonly name: string;
  readonly description?: string;
  readonly ensemble: EnsembleSpec;
  readonly contenders: ContenderSpec;
  /** The line of the contenders section, for the runner's set-up step. */
  readonly contendersLine?: number;
  readonly steps: readonly Step[];
  readonly checks: CheckConfig;
  /** Checks this drill exists to make fail (a lesson in what goes wrong); the drill passes only if they fail. */
  readonly expectFailure: readonly CheckName[];
  /** The same drill with other contenders, each run on a fresh lab and judged on its own (see expandVariants). */
  readonly variants?: readonly DrillVariant[];
}

export interface DrillVariant {
  readonly name: string;
  readonly contenders: ContenderSpec;
  readonly expectFailure: readonly CheckName[];
}
