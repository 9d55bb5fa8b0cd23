import { checkExecutionsPerJob } from './check-executions.js';
import { checkFailoverTime } from './check-failover.js';
import { checkFencedWrites } from './check-fenced-writes.js';
import { checkHerdSize } from './check-herd.js';
import { checkLiveness } from './check-liveness.js';
import { checkPreemption } from './check-preemption.js';
import { checkLockProgress } from './check-lock-progress.js';
import { checkNoLostJobs } from './check-lost-jobs.js';
import { checkMutualExclusion } from './check-mutual-exclusion.js';
import { checkNotificationsPerRelease } from './check-notifications.js';
import { checkSingleLeader } from './check-single-leader.js';
import { checkStatusTtl } from './check-status-ttl.js';
import type { CheckResult } from './check-types.js';
import type { History } from './history.js';
import { leaderFaults } from './leader-hits.js';
import { CHECK_NAMES, type CheckConfig } from '../format/types.js';

export type { CheckDetail, CheckResult, Measurement } from './check-types.js';
export {
  checkExecutionsPerJob,
  checkFailoverTime,
  checkFencedWrites,
  checkHerdSize,
  checkLiveness,
  checkLockProgress,
  checkPreemption,
  checkMutualExclusion,
  checkNoLostJobs,
  checkNotificationsPerRelease,
  checkSingleLeader,
  checkStatusTtl,
};

/** Runs the checks `config` names (parseDrill fills in the election's four when a drill names none), in a fixed order. */
export function runChecks(h: History, config: CheckConfig): CheckResult[] {
  const faults = leaderFaults(h);
  const out: CheckResult[] = [];
  for (const name of CHECK_NAMES) {
    if (config[name] === undefined) continue;
    if (name === 'singleLeader') out.push(checkSingleLeader(h));
    if (name === 'failoverTime') out.push(checkFailoverTime(h, config.failoverTime, faults));
    if (name === 'herdSize') out.push(checkHerdSize(h, config.herdSize, faults));
    if (name === 'liveness') out.push(checkLiveness(h, config.liveness, faults));
    if (name === 'noLostJobs') out.push(checkNoLostJobs(h, config.noLostJobs));
    if (name === 'executionsPerJob') out.push(checkExecutionsPerJob(h, config.executionsPerJob));
    if (name === 'statusTtl') out.push(checkStatusTtl(h, config.statusTtl));
    if (name === 'mutualExclusion') out.push(checkMutualExclusion(h));
    if (name === 'fencedWrites') out.push(checkFencedWrites(h));
    if (name === 'lockProgress') out.push(checkLockProgress(h, config.lockProgress));
    if (name === 'notificationsPerRelease') out.push(checkNotificationsPerRelease(h, config.notificationsPerRelease));
    if (name === 'preemption') out.push(checkPreemption(h, config.preemption));
  }
  return out;
}
