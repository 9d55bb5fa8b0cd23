import { formatDuration, formatOffset } from '../../duration.js';
import type { CheckDetail, CheckResult } from './check-types.js';
import { type History, meet } from './history.js';
import { formatToken } from '../../lab/fenced-resource.js';
import { lockHolds, type LockHold } from './lock-holds.js';
import { strict } from '../core/zod-helpers.js';
import { type Checker, needsLock } from './checker.js';

interface Overlap {
  readonly a: LockHold;
  readonly b: LockHold;
  readonly start: number;
  readonly end: number;
}

/** Every pair of two different contenders' holds that overlap, however briefly, the earlier-started first. */
function overlaps(holds: readonly LockHold[]): Overlap[] {
  const out: Overlap[] = [];
  holds.forEach((a, i) => {
    for (const b of holds.slice(i + 1)) {
      if (a.contender === b.contender) continue;
      const both = meet(a, b);
      if (!both) continue;
      const [first, second] = a.start <= b.start ? [a, b] : [b, a];
      out.push({ a: first, b: second, ...both });
    }
  });
  return out;
}

const describeHold = (x: LockHold) => `${x.contender} (token ${formatToken(x.token)})`;

/**
 * At most one contender believes it holds the lock at any moment. A believed hold runs from `lock-acquired` to the
 * `lock-released` of that token, or the holder's death; a holder frozen past its session and resumed still believes
 * it holds, and is judged so (the zombie holder fencing exists for). A holder logs its release before it sends the
 * delete that lets a successor acquire (see NORMAL_RELEASE), so any overlap of two contenders' holds, even of a
 * millisecond, is a violation: no release in flight excuses it.
 */
export function checkMutualExclusion(h: History): CheckResult {
  const holds = lockHolds(h);
  const bad = overlaps(holds);
  const at = (o: Overlap) => `${formatOffset(o.start, h.start)}..${formatOffset(o.end, h.start)}`;
  const details: CheckDetail[] = bad.map((o) => ({
    level: 'violation',
    t: o.start,
    message: `${describeHold(o.a)} and ${describeHold(o.b)} both held the lock for ${formatDuration(o.end - o.start)} (${at(o)})`,
  }));
  const measurements = [
    { name: 'holds', value: holds.length, unit: 'count' as const },
    { name: 'overlapping holds', value: bad.length, unit: 'count' as const },
    { name: 'time two held the lock', value: bad.reduce((n, o) => n + (o.end - o.start), 0), unit: 'ms' as const },
  ];
  if (holds.length === 0) {
    const message = 'no contender acquired the lock: nothing to judge';
    return {
      name: 'mutualExclusion',
      passed: false,
      summary: message,
      details: [{ level: 'violation', message }],
      measurements,
    };
  }
  const first = bad[0];
  return {
    name: 'mutualExclusion',
    passed: bad.length === 0,
    summary: !first
      ? `${holds.length} hold(s), no overlap`
      : `${bad.length} overlap(s) of ${holds.length} hold(s): ${describeHold(first.a)} and ${describeHold(first.b)} ` +
        `both held the lock for ${formatDuration(first.end - first.start)} at ${formatOffset(first.start, h.start)}` +
        (bad.length > 1 ? ', and more (see details)' : ''),
    details,
    measurements,
  };
}

const options = strict({});

export const mutualExclusionChecker: Checker<'mutualExclusion', typeof options> = {
  name: 'mutualExclusion',
  options,
  needs: needsLock,
  run: (h) => checkMutualExclusion(h),
};
