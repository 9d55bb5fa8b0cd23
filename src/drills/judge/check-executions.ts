import { formatOffset } from '../../duration.js';
import type { CheckDetail, CheckResult } from './check-types.js';
import type { History } from './history.js';
import { jobFacts } from './jobs.js';
import { z } from 'zod';
import { strict } from '../core/zod-helpers.js';
import { type Checker, needsScheduler } from './checker.js';

export const DEFAULT_MAX_EXECUTIONS = 1;

/**
 * Exactly-once, or as close as `max` allows: how many times each job ran to completion (`job-finished` in every
 * worker's log, ok or failed). ZooKeeper keeps one status per job; only the workers' logs see the second run.
 */
export function checkExecutionsPerJob(h: History, options: { readonly max?: number } = {}): CheckResult {
  const max = options.max ?? DEFAULT_MAX_EXECUTIONS;
  const jobs = jobFacts(h);
  if (jobs.length === 0) {
    const message = 'no jobs were submitted: nothing to judge (add a jobs step)';
    return {
      name: 'executionsPerJob',
      passed: false,
      summary: message,
      details: [{ level: 'violation', message }],
      measurements: [],
    };
  }
  const details: CheckDetail[] = [];
  for (const j of jobs) {
    if (j.executions.length <= max) continue;
    const runs = j.executions
      .map((x) => `${x.worker} (attempt ${x.attempt}) at ${formatOffset(x.t, h.start)}`)
      .join(', ');
    details.push({
      level: 'violation',
      t: j.executions[max]!.t,
      message: `${j.job} ran to completion ${j.executions.length} times, over ${max}: ${runs}`,
    });
  }
  const most = Math.max(0, ...jobs.map((j) => j.executions.length));
  const repeated = jobs.filter((j) => j.executions.length > 1).length;
  return {
    name: 'executionsPerJob',
    passed: details.length === 0,
    summary:
      details.length === 0
        ? `no job ran to completion more than ${max === 1 ? 'once' : `${max} times`} (${jobs.length} job(s))`
        : `${details.length} of ${jobs.length} job(s) ran to completion more than ${max === 1 ? 'once' : `${max} times`} (at most ${most})`,
    details,
    measurements: [
      { name: 'most completed runs of one job', value: most, unit: 'count' },
      { name: 'jobs run to completion more than once', value: repeated, unit: 'count' },
    ],
  };
}

const options = strict({ max: z.number().int().min(1).optional() });

export const executionsPerJobChecker: Checker<'executionsPerJob', typeof options> = {
  name: 'executionsPerJob',
  options,
  needs: needsScheduler,
  run: (h, opts) => checkExecutionsPerJob(h, opts),
};
