import type { ContenderEventOf } from '../../lab/events.js';
import { deathOf, type History } from './history.js';

/**
 * The `reason` of a `lock-released` that deleted the holder's znode (`lost`: it was gone, its session with it).
 *
 * A holder logs `lock-released` once it has checked it still owns its znode and before it sends the delete
 * (src/recipes/lock-loop.ts, src/recipes/lock.ts): a successor can only hear of the delete, and acquire, after it. So a
 * release is always logged before its successor's `notified` and `lock-acquired`, and the checks allow no slack for it.
 */
export const NORMAL_RELEASE = 'done';

/** How a believed hold ended: released (any reason), the holder's process died, or the history ended first. */
export type HoldEnd = 'released' | 'killed' | 'stopped' | 'exited' | 'end-of-history';

/** A believed hold: from the holder's `lock-acquired` to its `lock-released` of that token, its death, or the end. */
export interface LockHold {
  readonly contender: string;
  readonly token: number;
  readonly start: number;
  readonly end: number;
  readonly endReason: HoldEnd;
  /** The `lock-released` reason when it was released. */
  readonly releaseReason?: string;
}

/**
 * Every believed hold, sorted by start. A SIGSTOP does not end one: a frozen holder, resumed, still believes it
 * holds until its own log says otherwise; neither does an `expired`, which the holder hears of before it lets go.
 */
export function lockHolds(h: History): LockHold[] {
  const out: LockHold[] = [];
  h.events.forEach((e, i) => {
    if (e.event !== 'lock-acquired') return;
    const release = h.events
      .slice(i + 1)
      .find(
        (x): x is ContenderEventOf<'lock-released'> =>
          x.id === e.id && x.event === 'lock-released' && x.token === e.token,
      );
    const death = deathOf(e.id, h.events, h.lab);
    const died = death && death.t >= e.t && (!release || death.t < release.t) ? death : undefined;
    const base = { contender: e.id, token: e.token, start: e.t };
    if (died) out.push({ ...base, end: died.t, endReason: died.reason });
    else if (release) out.push({ ...base, end: release.t, endReason: 'released', releaseReason: release.reason });
    else out.push({ ...base, end: Math.max(e.t, h.end), endReason: 'end-of-history' });
  });
  return out;
}

/** The normal releases (`lock-released` with reason done), sorted by time. */
export function normalReleases(h: History): ContenderEventOf<'lock-released'>[] {
  return h.events.filter(
    (e): e is ContenderEventOf<'lock-released'> => e.event === 'lock-released' && e.reason === NORMAL_RELEASE,
  );
}
