import { formatDuration, formatOffset } from '../../duration.js';
import type { CheckDetail, CheckResult } from './check-types.js';
import { deathOf, type History, unfrozenMs } from './history.js';
import { duration, strict } from '../core/zod-helpers.js';
import { type Checker, needsLock } from './checker.js';

export const DEFAULT_LOCK_WAIT_MS = 10_000;

/** One wait in the lock's queue: from a `joined` to the contender's next `lock-acquired`, or what ended it first. */
interface LockWait {
  readonly contender: string;
  readonly start: number;
  readonly end: number;
  /** acquired; gone: it died, its session expired or it joined again (a new znode starts a new wait); open: the history ended. */
  readonly outcome: 'acquired' | 'gone' | 'open';
  /** What ended a wait that is `gone`. */
  readonly why?: string;
  /** The time it waited, its own frozen time left out (a SIGSTOPped waiter cannot take the lock). */
  readonly ms: number;
}

function lockWaits(h: History): LockWait[] {
  const out: LockWait[] = [];
  h.events.forEach((e, i) => {
    if (e.event !== 'joined') return;
    const next = h.events
      .slice(i + 1)
      .find((x) => x.id === e.id && (x.event === 'lock-acquired' || x.event === 'expired' || x.event === 'joined'));
    const death = deathOf(e.id, h.events, h.lab);
    const died = death && death.t >= e.t && (!next || death.t < next.t) ? death : undefined;
    const wait = (end: number, outcome: LockWait['outcome'], why?: string): LockWait => ({
      contender: e.id,
      start: e.t,
      end,
      outcome,
      ...(why === undefined ? {} : { why }),
      ms: unfrozenMs(h, [e.id], e.t, end),
    });
    if (died) out.push(wait(died.t, 'gone', died.reason));
    else if (next?.event === 'lock-acquired') out.push(wait(next.t, 'acquired'));
    else if (next) out.push(wait(next.t, 'gone', next.event === 'expired' ? 'its session expired' : 'it joined again'));
    else out.push(wait(Math.max(e.t, h.end), 'open'));
  });
  return out;
}

/** What ended a wait without the lock: "it was killed", or the session's end as recorded. */
const endedBy = (why: string | undefined): string =>
  why === 'killed' || why === 'stopped' || why === 'exited' ? `it was ${why}` : `${why}`;

/**
 * Every contender that joins the lock's queue gets the lock within `within` (its own frozen time left out). A wait
 * that ended without the lock (the contender died, its session expired) is judged only if it had already lasted
 * longer; one still open at the end only if the drill ran past its bound.
 */
export function checkLockProgress(h: History, options: { readonly within?: number } = {}): CheckResult {
  const within = options.within ?? DEFAULT_LOCK_WAIT_MS;
  const waits = lockWaits(h);
  const at = (t: number) => formatOffset(t, h.start);
  const over = waits.filter((w) => w.ms > within);
  const details: CheckDetail[] = over.map((w) => ({
    level: 'violation',
    t: w.start,
    message:
      w.outcome === 'acquired'
        ? `${w.contender} waited ${formatDuration(w.ms)} for the lock from ${at(w.start)} to ${at(w.end)}, ` +
          `over ${formatDuration(within)}`
        : w.outcome === 'gone'
          ? `${w.contender} waited ${formatDuration(w.ms)} from ${at(w.start)} without the lock, ` +
            `over ${formatDuration(within)}, until ${endedBy(w.why)} at ${at(w.end)}`
          : `${w.contender} joined at ${at(w.start)} and never got the lock ` +
            `(${formatDuration(w.ms)} to the end, over ${formatDuration(within)})`,
  }));
  const acquisitions = h.events.filter((e) => e.event === 'lock-acquired');
  const longest = waits.length === 0 ? null : Math.max(...waits.map((w) => w.ms));
  for (const c of h.contenders) {
    const own = waits.filter((w) => w.contender === c);
    if (own.length === 0) continue;
    const n = acquisitions.filter((e) => e.id === c).length;
    details.push({
      level: 'info',
      message: `${c}: ${n} acquisition(s), longest wait ${formatDuration(Math.max(...own.map((w) => w.ms)))}`,
    });
  }
  const measurements = [
    { name: 'acquisitions', value: acquisitions.length, unit: 'count' as const },
    { name: 'longest wait', value: longest, unit: 'ms' as const },
    { name: `waits over ${formatDuration(within)}`, value: over.length, unit: 'count' as const },
  ];
  if (waits.length === 0) {
    const message = 'no contender joined the lock queue: nothing to judge';
    return {
      name: 'lockProgress',
      passed: false,
      summary: message,
      details: [{ level: 'violation', message }],
      measurements,
    };
  }
  const never = [...new Set(over.filter((w) => w.outcome === 'open').map((w) => w.contender))];
  return {
    name: 'lockProgress',
    passed: over.length === 0,
    summary:
      over.length === 0
        ? `${acquisitions.length} acquisition(s), every wait within ${formatDuration(within)} (longest ${formatDuration(longest ?? 0)})`
        : `${over.length} wait(s) over ${formatDuration(within)} (longest ${formatDuration(longest ?? 0)})` +
          (never.length > 0 ? `; never got the lock: ${never.join(', ')}` : ''),
    details,
    measurements,
  };
}

const options = strict({ within: duration().optional() });

export const lockProgressChecker: Checker<'lockProgress', typeof options> = {
  name: 'lockProgress',
  options,
  needs: needsLock,
  run: (h, opts) => checkLockProgress(h, opts),
};
