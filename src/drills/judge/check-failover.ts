import type { CheckDetail, CheckResult, Measurement } from './check-types.js';
import { formatDuration, formatOffset } from '../../duration.js';
import type { History } from './history.js';
import { leaderFaults, type LeaderFault } from './leader-hits.js';
import { duration, strict } from '../core/zod-helpers.js';
import type { Checker } from './checker.js';

/** Time from each fault that took the leader down to the next claim by another contender. */
export function checkFailoverTime(
  h: History,
  options: { readonly max?: number } = {},
  faults: readonly LeaderFault[] = leaderFaults(h),
): CheckResult {
  const details: CheckDetail[] = [];
  const measurements: Measurement[] = [];
  let failures = 0;
  for (const f of faults) {
    const what = `${f.description} at ${formatOffset(f.t, h.start)}`;
    if (f.survived) {
      details.push({ level: 'info', t: f.t, message: `no failover needed: ${f.leader} kept leading through ${what}` });
      continue;
    }
    if (f.cameBack) {
      details.push({
        level: 'info',
        t: f.t,
        message: `no failover needed: ${f.leader} paused after ${what} and led again before anyone else claimed`,
      });
      continue;
    }
    const ms = f.next ? f.next.t - f.t : null;
    measurements.push({ name: `failover after ${f.description}`, value: ms, unit: 'ms', t: f.t });
    if (ms === null || !f.next) {
      failures++;
      details.push({ level: 'violation', t: f.t, message: `no other contender took over after ${what}` });
    } else if (options.max !== undefined && ms > options.max) {
      failures++;
      details.push({
        level: 'violation',
        t: f.t,
        message: `${f.next.contender} took over ${formatDuration(ms)} after ${what}, over the ${formatDuration(options.max)} bound`,
      });
    } else {
      details.push({
        level: 'info',
        t: f.t,
        message: `${f.next.contender} took over ${formatDuration(ms)} after ${what}`,
      });
    }
  }
  const values = measurements.map((m) => m.value).filter((v): v is number => v !== null);
  const bound = options.max !== undefined ? ` (bound ${formatDuration(options.max)})` : '';
  return {
    name: 'failoverTime',
    passed: failures === 0,
    summary:
      values.length + failures === 0
        ? 'no leader was taken down'
        : failures > 0
          ? `${failures} of ${measurements.length} failover(s) missing or too slow${bound}`
          : `${values.length} failover(s), slowest ${formatDuration(Math.max(...values))}${bound}`,
    details,
    measurements,
  };
}

const options = strict({ max: duration().optional() });

export const failoverTimeChecker: Checker<'failoverTime', typeof options> = {
  name: 'failoverTime',
  options,
  byDefault: true,
  run: (h, opts, ctx) => checkFailoverTime(h, opts, ctx.faults),
};
