import type { z } from 'zod';
import { executionsPerJobChecker } from './check-executions.js';
import { failoverTimeChecker } from './check-failover.js';
import { fencedWritesChecker } from './check-fenced-writes.js';
import { herdSizeChecker } from './check-herd.js';
import { livenessChecker } from './check-liveness.js';
import { lockProgressChecker } from './check-lock-progress.js';
import { noLostJobsChecker } from './check-lost-jobs.js';
import { mutualExclusionChecker } from './check-mutual-exclusion.js';
import { notificationsPerReleaseChecker } from './check-notifications.js';
import { preemptionChecker } from './check-preemption.js';
import { singleLeaderChecker } from './check-single-leader.js';
import { statusTtlChecker } from './check-status-ttl.js';
import type { CheckResult } from './check-types.js';
import type { Checker } from './checker.js';
import type { History } from './history.js';
import { leaderFaults } from './leader-hits.js';

/** Every check a drill may name, in the order their results are reported. */
export const CHECKERS = [
  singleLeaderChecker,
  failoverTimeChecker,
  herdSizeChecker,
  livenessChecker,
  noLostJobsChecker,
  executionsPerJobChecker,
  statusTtlChecker,
  mutualExclusionChecker,
  fencedWritesChecker,
  lockProgressChecker,
  notificationsPerReleaseChecker,
  preemptionChecker,
] as const;

type Registered = (typeof CHECKERS)[number];
export type CheckName = Registered['name'];
/** The checks a drill names, each with its options. */
export type CheckConfig = { readonly [C in Registered as C['name']]?: z.output<C['options']> };

export const CHECK_NAMES = CHECKERS.map((c) => c.name) as [CheckName, ...CheckName[]];
/** What a drill that names no checks is judged by: the election's four. */
export const DEFAULT_CHECKS: readonly CheckName[] = CHECKERS.filter((c) => c.byDefault).map((c) => c.name);

const BY_NAME: ReadonlyMap<string, Checker> = new Map(CHECKERS.map((c) => [c.name, c]));

export function checkerNamed(name: string): Checker | undefined {
  return BY_NAME.get(name);
}

/** Runs the checks `config` names (parseDrill fills in the election's four when a drill names none), in a fixed order. */
export function runChecks(h: History, config: CheckConfig): CheckResult[] {
  const ctx = { faults: leaderFaults(h) };
  const options: Readonly<Record<string, unknown>> = config;
  const out: CheckResult[] = [];
  for (const checker of CHECKERS as readonly Checker[]) {
    if (options[checker.name] !== undefined) out.push(checker.run(h, options[checker.name], ctx));
  }
  return out;
}

/**
 * The checks `config` names, each not judged: a run that stopped part-way has no whole history to judge them by, and
 * a check that passed on half a history would claim what nobody saw. `why` says where the run stopped.
 */
export function checksNotJudged(config: CheckConfig, why: string): CheckResult[] {
  const options: Readonly<Record<string, unknown>> = config;
  return CHECKERS.filter((c) => options[c.name] !== undefined).map((c) => ({
    name: c.name,
    passed: false,
    summary: why,
    details: [],
    measurements: [],
    notJudged: why,
  }));
}
