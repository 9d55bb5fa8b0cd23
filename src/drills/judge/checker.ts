import type { z } from 'zod';
import { type ContenderTraits, NEEDS_LOCK, NEEDS_SCHEDULER } from '../core/contender-traits.js';
import type { CheckResult } from './check-types.js';
import type { History } from './history.js';
import type { LeaderFault } from './leader-hits.js';

/** What every checker gets beside the history and its options, worked out once per run. */
export interface CheckContext {
  /** The faults that hit a leader, for the checks that measure what followed each. */
  readonly faults: readonly LeaderFault[];
}

/** A problem with a check's options that no one field shows, at `field` inside them. */
export interface OptionsProblem {
  readonly field: string;
  readonly message: string;
}

/**
 * One check a drill may name in its `checks` list: its name, its options, what it needs of the contenders and how it
 * judges a run's history. The registry (checkers.ts) lists every checker, in the order their results are reported.
 */
export interface Checker<N extends string = string, S extends z.ZodType = z.ZodType> {
  readonly name: N;
  /** Its options in a drill file, `herdSize: { max: 1 }`; a bare `herdSize` is `{}`. */
  readonly options: S;
  /** Judges a drill that names no checks. */
  readonly byDefault?: boolean;
  /** What a drill whose contenders it cannot judge is told ("judges jobs: it needs ..."); undefined: it can. */
  needs?(contenders: ContenderTraits): string | undefined;
  /** A problem with its options as a whole (fields that contradict each other), if there is one. */
  refuse?(options: z.output<S>): OptionsProblem | undefined;
  run(h: History, options: z.output<S>, ctx: CheckContext): CheckResult;
}

/** For the checks that judge the scheduler's jobs. */
export const needsScheduler = (c: ContenderTraits): string | undefined =>
  c.scheduler ? undefined : `judges jobs: it ${NEEDS_SCHEDULER}`;

/** For the checks that judge the lock workload. */
export const needsLock = (c: ContenderTraits): string | undefined =>
  c.lock ? undefined : `judges the lock workload: it ${NEEDS_LOCK}`;
