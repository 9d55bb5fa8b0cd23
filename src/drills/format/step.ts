/** The steps of a parsed drill, each with the line it came from. */

import type { FailpointAction } from '../../recipes/failpoint-names.js';
import type { JobSpec } from '../../recipes/scheduler-layout.js';
import type { Expectation } from './expectation.js';
import type { Target } from './types.js';
import type { WaitCondition } from './wait-condition.js';

export const SIGNALS = ['SIGKILL', 'SIGTERM', 'SIGINT'] as const;
export type KillSignal = (typeof SIGNALS)[number];

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
