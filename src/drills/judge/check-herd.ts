import type { CheckResult } from './check-types.js';
import { formatDuration, formatOffset } from '../../duration.js';
import type { History } from './history.js';
import { leaderFaults, type LeaderFault } from './leader-hits.js';
import { z } from 'zod';
import { duration, strict } from '../core/zod-helpers.js';
import type { Checker } from './checker.js';

export const DEFAULT_HERD_WINDOW_MS = 500;

export interface HerdCount {
  readonly death: LeaderFault;
  /** The window in which `notified` events were counted. */
  readonly from: number;
  readonly to: number;
  readonly notified: number;
  /** Whether the window has closed by the end of the history (false: more notifications may still come). */
  readonly complete: boolean;
}

/**
 * For each leader death, the `notified` events of the other contenders from the death to the next claim plus a
 * window (watch events still in flight when the new leader claims); the window stops at the next death so that no
 * notification is counted twice.
 */
export function herdCounts(
  h: History,
  windowMs = DEFAULT_HERD_WINDOW_MS,
  faults: readonly LeaderFault[] = leaderFaults(h),
): HerdCount[] {
  // A leader that came back woke its watchers, perhaps, but it did not die: there is no herd to count.
  const deaths = faults.filter((f) => !f.survived && !f.cameBack);
  return deaths.map((death, k) => {
    const nextDeath = deaths[k + 1]?.t ?? Infinity;
    const wanted = death.next ? death.next.t + windowMs : Infinity;
    const to = Math.min(wanted, nextDeath, h.end);
    const notified = h.events.filter(
      (e) => e.event === 'notified' && e.id !== death.leader && e.t >= death.t && e.t <= to,
    ).length;
    return { death, from: death.t, to, notified, complete: Math.min(wanted, nextDeath) <= h.end };
  });
}

/** How many contenders each leader death woke: 1 for a predecessor chain, everyone for a herd. */
export function checkHerdSize(
  h: History,
  options: { readonly max?: number; readonly window?: number } = {},
  faults: readonly LeaderFault[] = leaderFaults(h),
): CheckResult {
  const counts = herdCounts(h, options.window, faults);
  const worst = Math.max(0, ...counts.map((c) => c.notified));
  const over = counts.filter((c) => options.max !== undefined && c.notified > options.max);
  const bound = options.max !== undefined ? ` (bound ${options.max})` : '';
  return {
    name: 'herdSize',
    passed: over.length === 0,
    summary:
      counts.length === 0 ? 'no leader died' : `${counts.length} leader death(s), at most ${worst} notified${bound}`,
    details: counts.map((c) => ({
      level: options.max !== undefined && c.notified > options.max ? ('violation' as const) : ('info' as const),
      t: c.from,
      message:
        `${c.notified} contender notification(s) after ${c.death.description} at ` +
        `${formatOffset(c.from, h.start)} (counted for ${formatDuration(c.to - c.from)})`,
    })),
    measurements: [
      ...counts.map((c) => ({
        name: `notified after ${c.death.description}`,
        value: c.notified,
        unit: 'count' as const,
        t: c.from,
      })),
      { name: 'max notified per death', value: worst, unit: 'count' },
    ],
  };
}

const options = strict({ max: z.number().int().min(0).optional(), window: duration().optional() });

export const herdSizeChecker: Checker<'herdSize', typeof options> = {
  name: 'herdSize',
  options,
  byDefault: true,
  run: (h, opts, ctx) => checkHerdSize(h, opts, ctx.faults),
};
